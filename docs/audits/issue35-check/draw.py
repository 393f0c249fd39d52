import json, random
e=json.load(open('ledger.json'))
ver=[x for x in e if x['status']=='verified']
lem=('lemma:example_utility_Holder','lemma:mean_median_Holder','lemma:inter_ES_Holder','lemma:PHT','lemma:RTD','lemma:Dual_Power','lemma:Quadratic')
pool1=[x for x in ver if '#step:' not in x['id'] and (x['id'].startswith('table:table_risks#') or x['id'].split('#')[0] in lem)]
pool2=[x for x in ver if '#step:' in x['id']]
rng=random.Random(35)
g1=rng.sample(pool1,10); g2=rng.sample(pool2,20)
print(len(pool1),len(pool2))
json.dump(g1+g2,open('sample.json','w'),indent=1)
for x in g1+g2:
    print('=====',x['id'])
    for k in ('claim','paper','derived','evidence','node','certificate','method'):
        print(k,':',str(x.get(k))[:600])
