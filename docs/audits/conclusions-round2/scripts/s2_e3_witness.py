# Witness: Hoelder on Xi only (the paper's Definition) does not give lemma:probability of E3 / RS-UCB-M's
# identification step.  K=2, arms Bern(0.4), Bern(0.6); h(u)=u-0.4 on [0.4,0.6], h=1 on [0.4-d0,0.4), h=0 elsewhere.
# On Xi: U_h(Bern p)=p-0.4 -> q=1, L_H=1, r=1, L_MH=1, L=1, B=1, W=0.1.  Mid-point grid eps=1/2: a*=(1/4,3/4) (V=0.15), a'=(3/4,1/4) (V=0.05), Delta_min=0.1.
import math
e=math.e; K=2; L=1.0; q=1; eps=0.5; rho=0.9; Dmin=0.1; d0=1e-3
S=lambda s: math.sqrt(2*e*math.log(s))+32
thr=(1/16)*(Dmin/(2*K*L))**(1/q)
f=lambda s: S(s)/math.sqrt(rho*s*eps/4)
# f is decreasing for s>=3; find T0 by bisection
lo,hi=3,10**15
while hi-lo>1:
    mid=(lo+hi)//2
    if f(mid)<=thr: hi=mid
    else: lo=mid
T0=hi; Teps=(2/eps)*(T0-1); T=int(Teps)+1
print("T0",T0,"T(eps)",Teps,"T",T,"T>e^K",T>math.exp(K))
n_expl=math.ceil(rho*T*eps/4); print("forced pulls per arm",n_expl,"exploration ends at",K*n_expl,"< T0:",K*n_expl<T0)
rad=lambda tau: 16*S(T)/math.sqrt(tau)
worst=1e9
for t in [T0]:
    # every split tau1+tau2=t with tau_i>=n_expl
    for frac in [i/1000 for i in range(1001)]:
        tau1=n_expl+frac*(t-2*n_expl); tau2=t-tau1
        r1,r2=rad(tau1),rad(tau2)
        Rw=0.75*r1+0.25*r2      # a'=(3/4,1/4)
        Rs=0.25*r1+0.75*r2      # a*=(1/4,3/4)
        fl=1e-3                 # adversarial slack for empirical means
        m_w=0.45+fl; dd=(m_w-0.4)+d0/2; ell=min(1,Rw/dd)
        lower_w=(1-ell)*max(0,min(m_w,0.6)-0.4)*0+ (1-ell)*0.0 + ell*1.0   # h(0.45)>=0 dropped (conservative)
        lower_w=ell*1.0 + (1-ell)*(0.45-fl-0.4)
        m_s=0.55+fl; upper_s=(m_s-0.4)+Rs+Rs/(0.15-fl-d0)
        worst=min(worst,lower_w-upper_s)
    print("t=T0: radii at the split extremes", rad(n_expl), rad(t-n_expl))
print("min over splits of [UCB lower bound of a'] - [UCB upper bound of a*] =",worst)
print("=> a* is not an optimistic maximiser at t=T0 >= T0 on the event E_0, so OPT~_t != OPT; P(E3)~1 >> T((2/T^2+1)^K-1) =", T*((2/T**2+1)**K-1))
