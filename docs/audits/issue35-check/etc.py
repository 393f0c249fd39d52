import numpy as np
rng=np.random.default_rng(7); bad1=bad2=0; badid=0
for _ in range(200000):
    D=rng.uniform(0,1); Us=rng.uniform(0,2); UN=rng.uniform(0,2)
    hs=Us+rng.uniform(-D/2,D/2); hN=UN+rng.uniform(-D/2,D/2)   # on E(D/2) (<=)
    if rng.random()<0.01: hs=Us-D/2; hN=UN+D/2                 # boundary of E
    if Us>=UN+D and not (hs+D/2>=hN+D/2): bad1+=1
print('ETC_1 violations',bad1)
# A22 union bound with E=E1∩E2: P(notE) <= P(notE1)+P(notE2) on random joint laws
for _ in range(20000):
    p=rng.dirichlet(np.ones(4)) # cells (E1,E2),(E1,~E2),(~E1,E2),(~E1,~E2)
    pc=rng.uniform(); lhs=pc*(1-p[0]); 
    if not (lhs<=1-p[0]+1e-15 and 1-p[0]<=(p[2]+p[3])+(p[1]+p[3])+1e-15): bad2+=1
print('A22 violations',bad2)
# regret identity: discrete regret = A1+A2+A3 with A1=0 when OPT = set of discrete maximisers
for _ in range(20000):
    n=rng.integers(2,6); V=rng.integers(0,4,n)/4.0; Vstar=V.max()  # grid values with ties
    probs=rng.dirichlet(np.ones(n)); Vtau=V-rng.uniform(0,1,n)
    opt=V==Vstar
    A1=(probs*(Vstar-V)*opt).sum(); A2=(probs*(Vstar-V)*(~opt)).sum(); A3=(probs*(V-Vtau)).sum()
    if abs(A1)>1e-15 or abs((Vstar-(probs*Vtau).sum())-(A1+A2+A3))>1e-12: badid+=1
print('regret identity violations',badid)
