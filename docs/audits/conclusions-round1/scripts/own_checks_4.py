# Witness: ETC eps-dependent display fails when U_h is Hölder only on Xi (paper's stated assumption)
# Arms Bern(0.4), Bern(0.5); h(u)=u except h(u)=1 on (0.4-d,0.4). On Xi (u in [0.4,0.5]) U_h=u: q=1, L=1, r=1.
import math
from scipy.stats import binom
K,L,q=2,1.0,1.0; p1,p2=0.4,0.5; d=0.05; eps=0.5
Dmin=0.5-0.45  # grid {e1,(1/2,1/2),e2}: V=0.4,0.45,0.5
W=abs(p2-p1)/2
def N_of(T): return 256*K*math.e*(2*K*L/Dmin)**(2/q)*(32/math.sqrt(math.e)+math.sqrt(math.log(2*K*T**2*(eps**-(K-1)+1))))**2
T=1e13
for _ in range(5): N=N_of(T); T=1000*N
N=N_of(T); n=math.ceil(N/K)
# P(p1_hat in (0.4-d,0.4)) -> Uhat(e1)=1 beats everything (others have Uhat<=h(<=~0.5)<1 unless their mean also lands in the window)
lo=math.floor((p1-d)*n)+1; hi=math.ceil(p1*n)-1
P=binom.cdf(hi,n,p1)-binom.cdf(lo-1,n,p1)
regret_lb=P*(0.5-0.4)*0.999   # commit to e1 => V(tau/T) ~ 0.4
bound=(L*K+W**-q)*(3*W*N/T)**q + 0.0
print(f"T={T:.3e} N={N:.3e} n/arm={n}: P(commit e1)>={P:.4f}, E regret >= {regret_lb:.4f} vs printed bound {bound:.5f}; Delta(eps)=0")
