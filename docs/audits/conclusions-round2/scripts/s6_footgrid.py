# Does lemma:Delta_error fail on the ETC grid with 1/eps not an integer (footnote grid)? Check L1 covering radius vs K eps/2,
# and Delta/bound for the mean DR (r=1, L_MH=1; alpha* a vertex) and Gini.
import numpy as np, itertools, math
def footgrid(K,eps):
    n=int(math.floor(1/eps+1e-12)); out=[]
    for c in itertools.product(range(n+1),repeat=K-1):
        s=eps*sum(c)
        if s<=1+1e-12: out.append([eps*x for x in c]+[1-s])
    return np.array(out)
worst=(0,None)
for K in [2,3]:
    for eps in np.linspace(0.21,0.95,75):
        if abs(1/eps-round(1/eps))<1e-9: continue
        G=footgrid(K,eps)
        # dense alpha grid
        m=60
        pts=[np.array(c)/m for c in itertools.product(range(m+1),repeat=K) if sum(c)==m]
        for x in pts:
            d=np.abs(G-x).sum(1).min()/(K*eps/2)
            if d>worst[0]: worst=(d,(K,round(eps,4),tuple(np.round(x,3))))
print("max L1 distance/(K eps/2) on footnote ETC grids:",worst)
# Delta/bound for mean DR with p: alpha*=e_j, the vertex with the largest mean placed FIRST (not the last coordinate)
for eps in [0.3,0.45,0.7,0.8]:
    for p in [np.array([0.9,0.1]),np.array([0.9,0.1,0.1])]:
        K=len(p); G=footgrid(K,eps); V=(G@p).max(); Delta=p.max()-V; W=(p.max()-p.min())/2
        print("eps",eps,"p",p,"Delta %.3f bound %.3f"%(Delta,(K*W)*(eps/2)))
