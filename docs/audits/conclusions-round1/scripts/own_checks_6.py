import math, numpy as np, sympy as sp
from scipy.stats import binom
# (a) concentration at an adaptive count (log10 scale). Bern(1/2), W1 = |p_hat - p|, y = 0.45
y=0.45; n1=1_500_000; n2=10**10
b=lambda n: math.log10(2)-n/(256*math.e)*(y-512/math.sqrt(n))**2/math.log(10)
# P(|p_hat_n1 - 1/2| > y) = 2 P(X <= n1*(0.05)) ; log10 via logcdf
k=math.ceil(n1*0.05)-1   # p_hat=k/n1 < 0.05 -> deviation > 0.45
lp1=(math.log(2)+math.lgamma(n1+1)-math.lgamma(k+1)-math.lgamma(n1-k+1)+n1*math.log(0.5))/math.log(10)  # lower bound via one pmf term
print(f"log10 P1={lp1:.1f}; log10 b(n1)={b(n1):.3f}; log10 b(n2)={b(n2):.4g}")
print(" policy: stop at n1 if deviation>y else continue to n2 -> P(dev_tau>y) >= P1; E[b(tau)] <= P1*b(n1)+b(n2)")
# E[b(tau)] <= P1*b(n1) + b(n2)  (log10): compare
rhs=max(lp1+b(n1), b(n2))+math.log10(2)
print(f" log10 P(dev_tau>y) >= {lp1:.1f}  >  log10 E[b(tau)] <= {rhs:.1f}: violated = {lp1>rhs}")
# (b) right-tail: ETC better range with paper's r=1 vs derived r=2 (q=1/2)
be=sp.symbols('beta',positive=True); q=sp.Rational(1,2)
for r in [1,2]:
    kap=1/(2*be/q+2); g=2*be/(2*be+r); etc=g*q*r/(2*be)
    ucb_hi=r*kap; ucb_lo=(1-kap)*q/2
    thr=r-q/2
    sol=sp.solve(sp.Eq(etc,ucb_lo),be)
    print(f"RTD r={r}: ETC exp {sp.simplify(etc)}, UCB exp {sp.simplify(ucb_hi)} (beta>={thr}) else {sp.simplify(ucb_lo)}; ETC=UCB_lo at beta={sol}")
# (c) ties at the optimum for the experiments' instance on the mid-point grid (K=2): n=1/eps integer
p=np.array([0.4,0.9]); ties=[]
for n in range(2,41):
    m=n-1  # sum n_i = 1/eps - K/2 = n-1
    eps=1/n; vals=sorted([ (lambda x:x*(1-x))(eps*(k+0.5)*p[0]+eps*(m-k+0.5)*p[1]) for k in range(m+1)],reverse=True)
    if abs(vals[0]-vals[1])<1e-12: ties.append(n)
print("mid-point grids 1/eps=2..40 with tied optimum:",ties,len(ties))
