import numpy as np, itertools, math
from fractions import Fraction as Fr
# 1. Gini lemma at p=1/2
h=lambda u:u*(1-u)
p=0.5; print("Gini p=1/2: mix", h(0.5*p+0.5*(1-p)), "max arm", max(h(p),h(1-p)))
# 2. concentration at y=0, n=1 Bern(1/2): P(W>0)=1 vs bound
n=1; y=0.0; print("conc bound y=0:", 2*math.exp(-n/(256*math.e)*(y-512/math.sqrt(n))**2))
# 3. Delta_error mid grid witness: mean, p=(.1,.1,.1,.9), eps=1/4, K=4
def midgrid(K,eps):
    m=round(1/eps-K/2); out=[]
    for c in itertools.product(range(m+1),repeat=K):
        if sum(c)==m: out.append(tuple(eps*(ci+0.5) for ci in c))
    return out
p=np.array([.1,.1,.1,.9]); G=midgrid(4,0.25); V=[float(np.dot(a,p)) for a in G]
Delta=0.9-max(V); W=0.4; bound=1*(4*W)*(0.25/2)
print("Delta_error: Delta",Delta,"bound",bound)
# 4. beta for dual power s=2 at max p=1, K=2, mid grid
def dmin(hf,p,K,eps):
    G=midgrid(K,eps); V=sorted({round(hf(float(np.dot(a,p))),15) for a in G},reverse=True)
    vals=sorted([hf(float(np.dot(a,p))) for a in G],reverse=True)
    return vals[0]-vals[1]
dp=lambda u:1-(1-u)**2
for p in [np.array([.4,1.0]),np.array([.4,.9])]:
    es=[1/(n+1) for n in (20,40,80,160)]; d=[dmin(dp,p,2,e) for e in es]
    print("dual power p",p,"Dmin",d,"slopes",[math.log(d[i+1]/d[i])/math.log(es[i+1]/es[i]) for i in range(3)])
# 5. tie grids Gini instance Bern(.4),Bern(.9), mid grid eps=1/n
ties=[]
for n in range(2,41):
    eps=Fr(1,n); vals=[]
    for k in range(n):
        a1=eps*(k+Fr(1,2)); m=Fr(9,10)-Fr(1,2)*a1; vals.append(m*(1-m))
    vals.sort(reverse=True)
    if vals[0]==vals[1]: ties.append(n)
print("tie grids n<=40:",ties)
# 6. theorem:W: Dirac(0), Dirac(10) (1-sub-Gaussian in the centred MGF sense): W ratio
print("W for delta0,delta10:", 10/2, "vs sqrt(2pi)", math.sqrt(2*math.pi))
# 7. PHT tau=2,s=1/2: delta0 vs delta2
print("PHT: U diff",2,"vs W^s",2**0.5)
