import json, random
L=json.load(open('ledger.json')); F=json.load(open('findings.json'))
ids=[e['id'] for e in L]
covA=set()
for b in F['bottom_lines']:
    for i in ids:
        if i==b['label'] or any(i==b['label']+'#'+p for p in b['parts']) or i.startswith(b['label']+'#display'): covA.add(i)
    if b['at']: covA.add(b['at'])
covB=set(i for w in F['what_matters'] for i in w['ids'])
cand=[e for e in L if e['id'] not in covA|covB]
adv=[e for e in cand if e['status']!='verified']; ver=[e for e in cand if e['status']=='verified']
rng=random.Random(20261128)
print(len(adv),len(ver))
pa=rng.sample(adv,min(20,len(adv))); pv=rng.sample(ver,40-len(pa))
print(len(covA),len(covB),len(cand),len(adv),len(ver))
json.dump({'adverse':pa,'verified':pv},open('drawC.json','w'),indent=1)
for e in pa+pv: print(e['status'],'|',e['id'])
