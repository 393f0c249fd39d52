# Counterexample to theorem: ETC upper bound (and theorem:RS-ETC-M) when Hoelder continuity holds only on Xi
# (Definition: "for all distributions G1,G2 in (Xi,W1)"), as printed.
# Omega={0,1}; arms Bern(0.4), Bern(0.6); h(u)=1 for u<0.4, u on [0.4,0.6], 0 for u>0.6 (h:[0,1]->[0,1], h(0)=0? no: h(0)=1)
# -> we need h(0)=0: take h(0)=0, h(u)=1 for 0<u<0.4. U_h(Bern(p))=h(p).
# On Xi={Bern(p):p in[0.4,0.6]}: U_h=p -> Hoelder q=1, L_H=1; optimum arm 2, mixture-Hoelder r=1, L_MH=1. B=1.
import math
from scipy.stats import binom
K, L, q, r = 2, 1.0, 1.0, 1.0
p1, p2 = 0.4, 0.6
W = 0.5*abs(p2-p1)      # W = max ||sum(a-b)F||_W/||a-b||_1 = 0.2|da|/(2|da|)
eps = 0.5               # ETC grid {(0,1),(1/2,1/2),(1,0)}
Dmin = 0.2*eps          # V(a)=0.4+0.2 a2 on the grid
def N_of(T):
    return 256*K*math.e*(2*K*L/Dmin)**(2/q)*(32/math.sqrt(math.e)+math.sqrt(math.log(2*K*T**2*(eps**-(K-1)+1))))**2
# find T with T = 1000*N(T)
T = 1e12
for _ in range(50): T = 1000*N_of(T)
N = N_of(T); n = math.ceil(N/K)
bound = (L*K + W**-q)*(3*W*N/T)**q + 0.0   # Delta(eps)=0 since alpha*=(0,1) is on the grid
# event p1_hat < 0.4: empirical argmax is a=(1,0) (value h(p1_hat)=1), ETC commits to arm 1
P = binom.cdf(math.ceil(0.4*n)-1, n, 0.4)
regret_on_event = 0.6 - (0.4 + 0.2*n/T)   # V(a*) - V(tau/T), arm 2 only has its n exploration pulls
print(f"N(eps)={N:.4e}, T={T:.4e}, n per arm={n}")
print(f"P(p1_hat<0.4)={P:.4f}; regret >= {P*regret_on_event:.4f}; theorem bound = {bound:.4e}")
