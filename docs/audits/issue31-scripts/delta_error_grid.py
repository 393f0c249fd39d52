# lemma:Delta_error: max_alpha min_{a in grid} ||alpha-a||_1 vs K*eps/2 (the proof's claim), ETC grid.
import itertools, numpy as np
rng=np.random.default_rng(0)
def etc_grid(K,n):
    return np.array([np.array(c)/n for c in itertools.product(range(n+1),repeat=K) if sum(c)==n])
for K in [2,3,4]:
    for n in [2,3,5]:
        G=etc_grid(K,n); A=rng.dirichlet(np.ones(K)*0.3,20000)
        A=np.vstack([A,np.eye(K),np.ones((1,K))/K])
        d=np.min(np.abs(A[:,None,:]-G[None,:,:]).sum(-1),axis=1).max()
        print(f"ETC grid K={K} 1/eps={n}: max min-L1 ~ {d:.4f} ; K*eps/2 = {K/(2*n):.4f}")
# footnote grid (1/eps not integer): first K-1 coords multiples of eps, last absorbs the deficit
eps=0.35; K=2; p=np.array([0.8,0.2])       # h(u)=u, alpha*=(1,0)
grid=[np.array([eps*j,1-eps*j]) for j in range(int(1/eps)+1)]
best=max(grid,key=lambda a:a@p); W=abs(p[0]-p[1])/2
print("footnote ETC grid eps=0.35:",[tuple(np.round(a,2)) for a in grid],"a*=",best,
      "Delta(eps)=",round(0.8-best@p,4)," bound L(KW)(eps/2)=",round(K*W*eps/2,4))
