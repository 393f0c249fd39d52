# Do the analysed quantities make sense at the paper's experimental horizons? Gini, Bern(0.4),Bern(0.9), K=2, L=1,q=1
import math
K,L,q,rho=2,1.0,1.0,0.1
p1,p2=0.4,0.9; W=0.5*abs(p2-p1); B=0.25
g=lambda p:p*(1-p)
def dmin(grid):
    v=sorted({round(g(a*p1+(1-a)*p2),15) for a in grid},reverse=True)
    return v[0]-v[1] if len(v)>1 else 0.0
def etc_grid(e):
    m=int(math.floor(1/e+1e-12)); return [min(1.0,e*j) for j in range(m+1)]+[1.0]
def mid_grid(e):
    out=[];j=0
    while e*(j+0.5)<=1-e/2+1e-12: out.append(e*(j+0.5)); j+=1
    return out
rad=lambda tau,T: 16*(math.sqrt(2*math.e*math.log(T))+32)/math.sqrt(tau)
print("max possible W1 between Bernoulli laws = 1; radius >= 512/sqrt(tau)")
for T in [1e3,1e4,1e5,3e5,1e6,1e7]:
    e=math.sqrt(K*math.log(T)/T)
    de=dmin(etc_grid(e)); dm=dmin(mid_grid(e))
    N=256*K*math.e*(2*K*L/de)**2*(32/math.sqrt(math.e)+math.sqrt(math.log(2*K*T**2*(e**-(K-1)+1))))**2 if de>0 else float('inf')
    ucb=(B+L*(W+1))*64*(math.sqrt(2*math.e*math.log(T))+32)/math.sqrt(e*rho*T)
    # T0(eps): smallest t with condition for all s>=t (LHS decreasing in s for s>=e)
    thr=(dm/(2*K*L))/16 if dm>0 else 0
    if thr>0:
        lo,hi=3,10**40
        f=lambda s:(math.sqrt(2*math.e*math.log(s))+32)/math.sqrt(rho*s*e/4)
        while hi/lo>1.0001:
            mid=math.sqrt(lo*hi)
            if f(mid)<=thr: hi=mid
            else: lo=mid
        Teps=2/e*(hi-1)
    else: Teps=float('inf')
    print(f"T={T:.0e} eps={e:.4f} | ETC: Dmin={de:.2e} N(eps)={N:.2e} (commits iff T>N: {T>N}) | "
          f"radius@tau=T/10: {rad(T/10,T):.2f}, @tau=T: {rad(T,T):.2f} | UCB bound={ucb:.1f} (trivial 0.25) | mid Dmin={dm:.2e} T(eps)={Teps:.2e}")
