# Own checks for bottom lines / entries (auditor 2). Run from /work/audit2.
import numpy as np, itertools, math
print("== Gini example: p in [0,1], arms Bern(p), Bern(1-p)")
h=lambda u:u*(1-u)
for p in [0,0.1,0.3,0.5,0.7,1]:
    sup=max(h(a*p+(1-a)*(1-p)) for a in np.linspace(0,1,100001))
    print(p, "sup",round(sup,6),"U(0.5 mix)",h(0.5),"max arm",max(h(p),h(1-p)), "strict>", h(0.5)>max(h(p),h(1-p)))
print("== PHT L=1 on [0,tau]: F=delta_0, G=delta_tau (both in hull of arms delta_0, delta_tau)")
for s in [0.25,0.5,0.75]:
    for tau in [1,2,4,10]:
        dU=tau*1.0  # U(delta_tau)=int_0^tau h(1)dx = tau ; U(delta_0)=0
        W=tau
        print(f"s={s} tau={tau}: dU={dU} L*W^s={W**s:.3f} ratio={dU/W**s:.3f} (needs L>=tau^(1-s)={tau**(1-s):.3f})")
print("== Concentration radius 16(sqrt(2e logT)+32)/sqrt(tau), tau<=T")
for T in [500,1000,2000,4000,7.5e4,1e5,3e5,1e6,1e7]:
    r=16*(math.sqrt(2*math.e*math.log(T))+32)/math.sqrt(T)
    print(f"T={T:g} radius at tau=T: {r:.3f}")
# smallest tau with radius<1 at T
for T in [3e5,1e6,1e9]:
    S=16*(math.sqrt(2*math.e*math.log(T))+32); print("T",T,"tau needed for radius<1:",S**2)
print("== UCB theorem bound X=64(sqrt(2e logT)+32)/sqrt(eps rho T) ; K-drop")
for (T,K,rho) in [(4000,2,0.1),(3e5,6,0.1),(1e8,6,0.5)]:
    eps=math.sqrt(K*math.log(T)/T)
    X=64*(math.sqrt(2*math.e*math.log(T))+32)/math.sqrt(eps*rho*T)
    print(T,K,rho,"eps",round(eps,4),"X",round(X,2))
# Gini Bernoulli: L=1, B=1/4, W<=1/2 ; theorem const B+L(W^q+1) vs proof B21 coefficient L*K
for K in [2,3,6]:
    print("K",K,"theorem const <=",0.25+1*(0.5+1),"proof B21 coeff L*K=",K)
print("== Delta_error on UCB midpoint grid, mean h(u)=u, p=(0.1,0.1,0.9), K=3")
p=np.array([0.1,0.1,0.9]);K=3
for m in [8,18,38]:
    eps=1/(m+K/2)  # sum n = 1/eps - K/2 = m integer
    best=-1
    for n in itertools.product(range(m+1),repeat=K):
        if sum(n)!=m: continue
        a=eps*(np.array(n)+0.5); v=a@p
        best=max(best,v)
    Delta=p.max()-best
    # W for Bernoulli = max |sum (a-b)p| / |a-b|_1 = (max p - min p)/2
    W=(p.max()-p.min())/2
    bound=1*(K*W)*(eps/2)
    print(f"eps={eps:.4f} Delta={Delta:.5f} bound L(KW)^r(eps/2)^r={bound:.5f} violated={Delta>bound+1e-12}")
print("== beta for dual power s=2 / quadratic s=1 with p_K=1 (K=2, p=(0.5,1)), both grids")
def dmin(hf,p,eps,grid):
    K=len(p); vals=[]
    if grid=='etc':
        n=round(1/eps)
        for k in range(n+1): a=np.array([k,n-k])/n; vals.append(hf(a@p))
    else:
        m=round(1/eps-K/2)
        for k in range(m+1): a=eps*(np.array([k,m-k])+0.5); vals.append(hf(a@p))
    vals=sorted(vals,reverse=True); return vals[0]-vals[1]
for name,hf in [("dual s=2",lambda u:1-(1-u)**2),("quad s=1",lambda u:2*u-u*u),("quad s=0.5",lambda u:1.5*u-0.5*u*u)]:
    for grid in ['etc','mid']:
        es=[1/50,1/200,1/800] if grid=='etc' else [1/50,1/200,1/800]
        d=[dmin(hf,np.array([0.5,1.0]),e,grid) for e in es]
        b=[math.log(d[i+1]/d[i])/math.log(es[i+1]/es[i]) for i in range(2)]
        print(name,grid,"Dmin",["%.2e"%x for x in d],"slope beta",["%.3f"%x for x in b])
print("== PHT s=1/2 UCB rate: q=r=1/2,beta=1 -> kappa, r*kappa, varpi exponent")
q=r=0.5;beta=1;kap=1/(2*beta/q+2);print("kappa",kap,"(logT/T)^",r*kap,"= varpi^",2*r*kap)
