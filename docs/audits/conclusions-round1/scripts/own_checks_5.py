# Findings spot-checks
import numpy as np, math, itertools
# (a) CVaR_0.5 optimum can be a mixture for general (non-Bernoulli) laws -> solitary_optimum group's condition is real
h=lambda u: min(2*u,1.0)
def U(S_pieces): return sum(h(s)*L for s,L in S_pieces)
F1=[(1.0,1.0)]                      # delta_1: S=1 on [0,1)
F2=[(0.1,5.0)]                      # 0.9 delta_0 + 0.1 delta_5: S=0.1 on [0,5)
mix=[(0.5*1+0.5*0.1,1.0),(0.5*0.1,4.0)]
print("CVaR_0.5: U(F1)=",U(F1)," U(F2)=",U(F2)," U(0.5F1+0.5F2)=",U(mix))
# (b) UCB_UB10-1 witness: Gini Bern(1/4,3/4), mid-point grid eps=1/4 -> literal Delta_min (min over a != a*) is 0 => T0 = inf
p=np.array([0.25,0.75]); eps=0.25; K=2; m=round(1/eps-K/2)
vals=[]
for n in range(m+1):
    a=eps*(np.array([n,m-n])+0.5); x=a@p; vals.append((x*(1-x),tuple(a)))
vals.sort(reverse=True); print("grid V:",[(round(v,5),a) for v,a in vals])
astar=vals[0][1]; lit=min(vals[0][0]-v for v,a in vals if a!=astar); print("literal Delta_min =",lit," (rsb used 0.03125 = gap to first non-optimal value)")
# (c) experiments: implied rho for 'T/10 per arm' and 'T/20 per arm' with eps=sqrt(K log T/T)
for K,T,frac in [(2,1e5,10),(2,3e5,20),(6,3e5,20)]:
    eps=math.sqrt(K*math.log(T)/T); print(f"K={K} T={T:g}: eps={eps:.4f}, implied rho={4*(T/frac)/(T*eps):.1f}")
# (d) N(eps) at the experiments (Gini (0.4,0.9), K=2, eps=sqrt(K log T/T), ETC grid nearest 1/n)
for T in [4000,1e5]:
    eps=math.sqrt(2*math.log(T)/T); n=round(1/eps); e=1/n
    V=sorted([((0.4*(1-k*e)+0.9*k*e)*(1-(0.4*(1-k*e)+0.9*k*e))) for k in range(n+1)],reverse=True)
    D=V[0]-V[1]; N=256*2*math.e*(4/D)**2*(32/math.sqrt(math.e)+math.sqrt(math.log(4*T**2*(n+1))))**2
    print(f"T={T:g}: 1/eps={n}, Delta_min={D:.3e}, N(eps)={N:.3e}  (N/T={N/T:.1e})")
