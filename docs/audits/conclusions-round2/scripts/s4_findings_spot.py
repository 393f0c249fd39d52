import math, numpy as np, itertools
from fractions import Fraction as Fr
e=math.e
# G1 concentration_adaptive: b(n1) at y=9/20, n1=1.5e6
b=lambda n,y: 2*math.exp(-n/(256*e)*(y-512/math.sqrt(n))**2)
print("G1 b(1.5e6)=",b(1.5e6,0.45)," y>=512/sqrt(n1):",0.45>=512/math.sqrt(1.5e6))
# G5 solitary_optimum: CVaR alpha=1/4 on delta_{1/3} and Bern(1/4): mixture beats both
hc=lambda u: min(u/(0.75),1.0)
def U(levels):  # levels: list of (length, survival)
    return sum(l*hc(s) for l,s in levels)
U1=U([(1/3,1.0)]); U2=U([(1,0.25)]); Um=U([(1/3,0.5+0.125),(2/3,0.125)])
print("G5 CVaR1/4: U(delta1/3)=%.4f U(Bern1/4)=%.4f U(mix)=%.4f"%(U1,U2,Um))
# G6 wrong_rate: PHT s=1/2 (q=r=1/2 printed, beta=1): corollary exponent of log T/T = r*kappa
q=r=0.5; beta=1; kap=1/(2*beta/q+2); print("G6 PHT UCB: kappa",kap,"(logT/T)^",r*kap,"; with Bernoulli r=1:",1*kap," paper text: 1/5; Table1 varpi^{1/5} = (logT/T)^",1/10)
# Gini orderwise: ETC T-exponent vs UCB T-exponent (q=1,r=2)
for beta in [1.5,2,3]:
    g=2*beta/(2*beta+2); etc=g*1*2/(2*beta); kap=1/(2*beta+2); ucb=2*kap
    print("   Gini beta=%g: ETC T^-%.4f UCB T^-%.4f"%(beta,etc,ucb))
# G7 experiments: N(eps) for Gini Bern(.4),Bern(.9), K=2, T=1e5, eps=sqrt(K log T/T), ETC grid (footnote)
K=2;T=1e5;eps=math.sqrt(K*math.log(T)/T)
k=np.arange(0,int(1/eps)+1); a1=k*eps; m=0.4*a1+0.9*(1-a1); V=np.sort(m*(1-m))[::-1]; Dmin=V[0]-V[1]
N=256*K*e*(2*K*1/Dmin)**2*(32/math.sqrt(e)+math.sqrt(math.log(2*K*T**2*(eps**(-(K-1))+1))))**2
print("G7 eps=%.5f Dmin=%.3e N=%.3e N/T=%.2e"%(eps,Dmin,N,N/T))
print("   UCB radius at tau=T=1e5:",16*(math.sqrt(2*e*math.log(T))+32)/math.sqrt(T))
print("   rho implied by T/10 per arm:",4*(T/10)/(T*eps))
# G10 appendix N(eps): bound with delta in log equals 1/delta
K=3;eps=0.25;L=1;q=1;D=0.2;delta=0.01
E=eps**(-(K-1)); s=math.sqrt(math.log(2*K*delta*(E+1))) if 2*K*delta*(E+1)>1 else float('nan')
delta=0.3; s=math.sqrt(math.log(2*K*delta*(E+1)))
N=256*K*e*(2*K*L/D)**(2/q)*(32/math.sqrt(e)+s)**2; n=N/K; y=(D/(2*K*L))**(1/q)
print("G10 bound*(delta) =",2*K*math.exp(-n/(256*e)*(y-512/math.sqrt(n))**2)*(E+1)*delta,"(=1 means bound = 1/delta)")
# G12 forced exploration: K=4, rho=1/2, eps=1/10, T=400 T0
for T0 in [1000,10**6]:
    T=400*T0; Teps=(2/0.1)*(T0-1); E_=4*math.ceil(0.5*T*0.1/4); print("G12 T0=%d exploration end %d > T(eps)=%d: %s"%(T0,E_,Teps,E_>Teps))
# G15 chained: eq:ETC_M_eps: 2 vs 3W (Gini Bern(.4),(.9): W=0.25)
print("G15 2N/T vs 3W N/T with W=0.25:",2,3*0.25)
# theorem_lastline_CE: W>1 claimed for sub-Gaussian; Bernoulli W=(pmax-pmin)/2
print("   Bernoulli W for (.4,.9):",(0.9-0.4)/2)
# G16 PHT on 1-sub-Gaussian-tail arms: delta_0 vs (1-d)delta_0+d delta_M, d=2exp(-M^2/2)
for M in [2,3,4]:
    d=2*math.exp(-M*M/2); Ud=M*d**0.5; Wd=d*M; print("G16 M=%d ratio U/W^s=%.3f"%(M,Ud/Wd**0.5))
