# Entries: own witnesses
import numpy as np, math, sympy as sp
b=sp.symbols('beta',positive=True)
q,r=1,2
kap=1/(2*b/q+2)
print("Gini UCB eps-indep T-exponent r*kappa =",sp.simplify(r*kap)," (if r<=beta+q/2), else (1-kappa)q/2 =",sp.simplify((1-kap)*q/2))
g=2*b/(2*b+r); print("Gini ETC T-exponent gamma q r/(2beta) =",sp.simplify(g*q*r/(2*b)))
print("  -> equal powers of T for beta>=3/2; ETC log power 1/beta vs UCB 1/(beta+1): only polylog differs")
for bb in [1,1.5,2,3]:
    u = float((r*kap).subs(b,bb)) if r<=bb+q/2 else float(((1-kap)*q/2).subs(b,bb)); e=float((g*q*r/(2*b)).subs(b,bb))
    print(f"  beta={bb}: UCB T^-{u:.4f}  ETC T^-{e:.4f}")
print("PHT s=1/2 UCB: kappa=1/6, r*kappa=1/12 -> (logT/T)^(1/12); paper lit_comp says (logT/T)^(1/5), Table 1 says varpi^(1/5)=(logT/T)^(1/10)")
print("== appendix N(eps) with delta INSIDE log (delta=1/T^2): failure bound 2K(..)exp(-log(2K delta(..))) = 1/delta")
K,eps,T=2,0.5,1e4; G=eps**-(K-1)+1; delta=1/T**2
x=2*K*delta*G; print("  log argument 2K delta(eps^-(K-1)+1)=",x,"<1 -> log negative, log^(1/2) undefined; main-text version uses 2K T^2(..)=",2*K*T**2*G)
print("== eq:replace with the ceiling: tau = ceil(rho T eps/4)")
rho,T,eps=0.3,1000,0.07; tau=math.ceil(rho*T*eps/4); t=tau/ (0.99*tau/ (rho*T*eps/4)) 
# choose a, t with t*a <= tau but rho T eps/(4t) < a
t=100; a=(tau-0.01)/t
print(f"  rhoTeps/4={rho*T*eps/4}, tau={tau}, t={t}, a={a:.4f}: tau>=t a {tau>=t*a}, rhoTeps/(4t)={rho*T*eps/(4*t):.4f} >= a? {rho*T*eps/(4*t)>=a}")
print("== ETC commit |tau_T/T - a| <= 2N/T: simulate the commit rule")
rng=np.random.default_rng(0); worst=0
for _ in range(20000):
    K=rng.integers(2,7); N=int(rng.integers(K,400)); T=int(N+rng.integers(1,3000))
    n0=math.ceil(N/K)
    if K*n0>T: continue
    # grid point
    m=rng.integers(1,30); a=rng.multinomial(m,np.ones(K)/K)/m
    tau=np.full(K,n0); budget=T-K*n0
    for i in range(K-1):
        need=max(0,math.floor(T*a[i])-n0); add=min(need,budget); tau[i]+=add; budget-=add
    tau[K-1]+=budget
    err=np.abs(tau/T-a).max()/(2*N/T); worst=max(worst,err)
print("  max err/(2N/T) =",round(worst,4))
print("== sketch.tracking: B22 tracking term 2 L K W^q (K/T)^q vs K/T, q=1/2 (RTD)")
for T in [1e4,1e6,1e8]:
    K=2;qq=0.5; print(f"  T={T:g}: K^(1+q) T^-q={K**(1+qq)*T**-qq:.2e}  K/T={K/T:.2e}")
