import numpy as np, itertools, math
# Entry 27 table:table_regrets#cvar.etc: CVaR_1/2, Bernoulli p=(0,0,0,0.6,0.7): two arms saturate h=1 -> ties at the optimum on every ETC grid
alpha=0.5; h=lambda u: min(u/(1-alpha),1.0); p=np.array([0,0,0,0.6,0.7]); K=5
def etcgrid(K,m):
    return [np.array(c)/m for c in itertools.product(range(m+1),repeat=K) if sum(c)==m]
for m in [1,2,4]:
    G=etcgrid(K,m); V=sorted([h(float(a@p)) for a in G],reverse=True)
    print("cvar ETC grid 1/eps=%d: top two V"%m, V[0],V[1]," Delta_min=",V[0]-V[1])
print("uniform sampling (N(eps)=inf: exploration never ends) regret:", 1-h(p.mean()))
# perturbation keeps the tie (open set): p=(0.01,0.02,0.03,0.55,0.9)
p2=np.array([0.01,0.02,0.03,0.55,0.9]); print("perturbed: h of top arms",h(0.55),h(0.9)," uniform regret",1-h(p2.mean()))
# Entry 4 lemma:Delta_error#order: L1 covering radius of grids vs 1.5 K eps (random + vertices + adversarial)
rng=np.random.default_rng(1)
def midgrid(K,m):  # eps=1/(m+K/2)
    eps=1/(m+K/2); return eps,[eps*(np.array(c)+0.5) for c in itertools.product(range(m+1),repeat=K) if sum(c)==m]
def footgrid(K,eps):
    n=int(math.floor(1/eps+1e-12)); out=[]
    for c in itertools.product(range(n+1),repeat=K-1):
        s=eps*sum(c)
        if s<=1+1e-12: out.append(np.array([eps*x for x in c]+[1-s]))
    return out
worst=0
for K in [2,3,4,5]:
    for kind in ["mid","foot"]:
        for par in ([1,2,3] if kind=="mid" else [0.3,0.45,0.7]):
            if kind=="mid": eps,G=midgrid(K,par)
            else: eps=par; G=footgrid(K,eps)
            G=np.array(G)
            pts=list(np.eye(K))+list(rng.dirichlet(np.ones(K)*0.3,3000))+list(rng.dirichlet(np.ones(K),3000))
            d=max(np.abs(G-x).sum(1).min() for x in pts)
            worst=max(worst,d/(K*eps))
            print(kind,"K",K,"eps %.3f"%eps,"covering L1/(K eps)=%.3f"%(d/(K*eps)))
print("max ratio (must be <= 1.5):",worst)
