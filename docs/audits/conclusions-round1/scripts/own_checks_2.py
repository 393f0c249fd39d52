# midpoint-grid L1 covering radius (for Delta_error O(eps^r) claim), ETC grid with non-integer 1/eps
import numpy as np, itertools
rng=np.random.default_rng(1)
for K,m in [(2,9),(3,8),(4,6)]:
    eps=1/(m+K/2)
    pts=[eps*(np.array(n)+0.5) for n in itertools.product(range(m+1),repeat=K) if sum(n)==m]
    P=np.array(pts); worst=0
    for _ in range(4000):
        a=rng.dirichlet(np.ones(K)*0.3); d=np.abs(P-a).sum(1).min(); worst=max(worst,d)
    for v in np.eye(K):
        worst=max(worst,np.abs(P-v).sum(1).min())
    print(f"midpoint K={K} eps={eps:.4f}: max min-L1 ~ {worst/eps:.3f} eps  (K eps/2 = {K/2}, (K-1) eps = {K-1})")
# ETC grid non-integer 1/eps (footnote: last coordinate absorbs), K=2, alpha*=(1,0), mean p=(0.9,0.1)
for inv in [5.3,5.6,5.9]:
    eps=1/inv; n=int(np.floor(inv))
    a1=np.array([k*eps for k in range(n+1)]); a=np.stack([a1,1-a1],1)
    p=np.array([0.9,0.1]); best=(a@p).max(); Delta=0.9-best; W=0.4
    print(f"ETC 1/eps={inv}: Delta={Delta:.4f} bound (KW)(eps/2)={2*W*eps/2:.4f} violated={Delta>2*W*eps/2}")
