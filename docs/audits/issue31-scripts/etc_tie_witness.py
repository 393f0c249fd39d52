# Witness that eq:ETC_2 ("probability = 0" on E_N(Delta_min/2) with closed events) is false in context.
# h(u)=u (risk-neutral mean; globally 1-Lipschitz, q=r=1, L=1), K=2, ETC grid eps=1/2, arms Bern(0.2), Bern(0.6).
from fractions import Fraction as Fr
import math
from scipy.stats import binom
p=[Fr(1,5),Fr(3,5)]
grid=[(Fr(0),Fr(1)),(Fr(1,2),Fr(1,2)),(Fr(1),Fr(0))]
V=lambda a,pp: a[0]*pp[0]+a[1]*pp[1]
vals=sorted(((V(a,p),a) for a in grid),reverse=True)
astar=vals[0][1]; Dmin=vals[0][0]-vals[1][0]
ph=[Fr(1,2),Fr(1,2)]      # empirical means after n (even) samples per arm
ahat=(Fr(1,2),Fr(1,2))    # an empirical maximiser (all grid points tie at 1/2), not in OPT
print("a*=",astar,"Delta_min=",Dmin)
print("E1: |U(a*,Fhat)-U(a*,F)| =",abs(V(astar,ph)-V(astar,p)),"<= Dmin/2 =",Dmin/2)
print("E2: |U(ahat,Fhat)-U(ahat,F)| =",abs(V(ahat,ph)-V(ahat,p)))
print("empirical values:",[V(a,ph) for a in grid]," -> ahat in argmax, ahat not in OPT")
print("event of eq:ETC_1:",V(astar,ph)+Dmin/2,">=",V(ahat,ph)+Dmin/2, V(astar,ph)+Dmin/2>=V(ahat,ph)+Dmin/2)
# probability for a concrete even n (T can be tuned so that ceil(N/2) is even since N(eps) is continuous in T)
for n in [10,100,1000]:
    lp=binom.logpmf(n//2,n,0.2)+binom.logpmf(n//2,n,0.6)
    print(f"n={n}: P(p1hat=p2hat=1/2) = exp({lp:.1f}) > 0")
