import numpy as np
# 1 example utility: Gini Bern(p), Bern(1-p)
h=lambda u:u*(1-u)
for p in [0.5,0.3,0.0]:
    print('gini p',p,'mix',h(0.5),'max arm',max(h(p),h(1-p)),'strict?',h(0.5)>max(h(p),h(1-p)))
# 2 concentration bound for y < 512/sqrt(n): Bern(1/2), n=100, y=0.01
n=100;y=0.01
rng=np.random.default_rng(0);S=rng.binomial(n,0.5,200000)/n
print('conc: P(W>y)=',np.mean(np.abs(S-0.5)>y),'bound',2*np.exp(-n/(256*np.e)*(y-512/np.sqrt(n))**2))
# 3 PHT tau=2, F=delta_0, G=delta_tau, s=1/2
tau=2.;s=.5
print('PHT: U(G)-U(F)=',tau,' L*W^s=',tau**s)
# 4 RTD case 2 with pmax<1/16: r=1 with L=1?
hr=lambda u:np.sqrt(u)-u
pmax=0.01;pg=np.linspace(0,pmax,1001)[:-1]
print('RTD max ratio (U*-U(G))/W for r=1:',np.max((hr(pmax)-hr(pg))/(pmax-pg)))
# 5 Delta_error: eps=0.6,K=2, arms delta_1, delta_0, h(u)=u (mean), W=1/2, r=1,L=1
eps=0.6; grid=[(0,1),(0.6,0.4)]; V=lambda a:a[0]*1.0
D=1-max(V(a) for a in grid); print('Delta(eps)=',D,'bound',1*(2*0.5)*(eps/2))
# 6 beta lemma: h=2u-u^2 strictly incr concave, p=(0.5,1), midpoint grid
hb=lambda u:2*u-u*u
for e in [0.1,0.01,0.001]:
    K=2;m=int(round(1/e));pts=[((k+0.5)*e,1-(k+0.5)*e) for k in range(m)]
    vals=sorted([hb(a[0]*0.5+a[1]*1.0) for a in pts],reverse=True)
    print('beta eps',e,'Dmin',vals[0]-vals[1],'log ratio',np.log(vals[0]-vals[1])/np.log(e))
