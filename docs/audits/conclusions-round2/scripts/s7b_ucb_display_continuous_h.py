# Witness that theorem:UCB upper bound's DISPLAY (RS-UCB-M) fails when U_h is Hoelder (q,L) on Xi only (the paper's Definition).
# K=2, arms Bern(0.40), Bern(0.42); h(u)=u-0.40 on [0.40,0.42] (so U_h = p-0.4 on Xi: q=1, L_H=L_MH=1, r=1),
# h=1 on [0.40-d0,0.40) (a spike outside Xi), h=0 elsewhere. h:[0,1]->[0,1], h(0)=0. Laws on [0,1]: B=1. W=0.01.
# VARIANT: continuous h, a triangular spike on [0.3998,0.4] peaking (h=1) at 0.3999, h(0.4)=0; the optimist lands exactly on the peak.
# Mid-point grid eps=1/2: a'=(3/4,1/4) mean .405 V=.005 ; a*=(1/4,3/4) mean .415 V=.015 ; alpha*=e2 V=.02.
# Delta_min=0.01, Delta(eps)=0.005.
import math
e=math.e; K=2; L=1.0; q=1; eps=0.5; rho=0.9; Dmin=0.01; d0=2e-4; fl=2e-4; B=1.0; W=0.01
S=lambda s: math.sqrt(2*e*math.log(s))+32
thr=(1/16)*(Dmin/(2*K*L))**(1/q)
f=lambda s: S(s)/math.sqrt(rho*s*eps/4)
lo,hi=3,10**18
while hi-lo>1:
    mid=(lo+hi)//2
    if f(mid)<=thr: hi=mid
    else: lo=mid
T0=hi; Teps=(2/eps)*(T0-1); T=int(Teps)+1
n=math.ceil(rho*T*eps/4); tend=K*n
rad=lambda tau: 16*S(T)/math.sqrt(tau)
print("T0=%d T(eps)=%.6g T=%d e^K<T:%s forced pulls/arm n=%d, exploration ends %d"%(T0,Teps,T,T>math.exp(K),n,tend))
def margin(tau1,tau2):
    r1,r2=rad(tau1),rad(tau2)
    Rw=0.75*r1+0.25*r2; Rs=0.25*r1+0.75*r2
    mw=0.405+fl; dd=(mw-0.40)+d0/2; ell=min(1.0,Rw/dd)
    lower_w=ell*1.0+(1-ell)*(0.405-fl-0.40)          # optimistic value of a' (explicit law in the balls)
    ms=0.415+fl; upper_s=(ms-0.40)+Rs+Rs/(ms-fl-0.40-d0-fl)  # any law in the balls, mixture a*
    return lower_w-upper_s
worst=1e9
for k in range(0,201):
    t=int(tend*(T/tend)**(k/200))
    for j in range(0,101):
        tau1=n+(t-2*n)*j/100; tau2=t-tau1
        if tau2<n: continue
        worst=min(worst,margin(tau1,tau2))
print("min over t in [end of exploration, T] and all count splits: UCB_lower(a') - UCB_upper(a*) = %.4f (>0: a' is the unique optimistic argmax at every t)"%worst)
# then the tracking rule drives tau_T/T to a'=(3/4,1/4) (|tau_T/T - a'| < K/T); forced counts n/T=%.4f<1/4 so arm 2 is not over-sampled
V=lambda m: (m-0.40)
reg=0.02-V(0.40+0.02*(0.25+2/T))
bound=(B+L*(W**q+1))*(64/math.sqrt(eps*rho*T)*S(T))**q+0.005
print("n/T=%.4f; regret on the event (prob ~1) >= %.5f ; printed bound [B+L(W^q+1)][64 S/sqrt(eps rho T)]^q + Delta(eps) = %.5f"%(n/T,reg,bound))
