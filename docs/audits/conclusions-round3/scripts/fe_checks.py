import numpy as np
V=lambda a2: (0.4+0.5*a2)*(1-(0.4+0.5*a2))
# grid_ties: experiments' instance Bern(.4),Bern(.9), Gini, midpoint grid eps=0.1
eps=0.1; a2=np.array([eps*(n+0.5) for n in range(int(round(1/eps-1))+1)])
v=np.sort(V(a2))[::-1]; print('mid grid eps=0.1 top two V',v[:2],'Dmin',v[0]-v[1])
# experiments: N(eps) and radius, T=1e5, K=2, eps=sqrt(K log T/T), ETC grid
for T in [75000,1e5,3e5]:
    K=2;e=np.sqrt(K*np.log(T)/T); n=np.arange(0,int(np.floor(1/e))+1); g=np.minimum(n*e,1.0)
    vals=np.sort(V(1-g) )[::-1]  # a2 = 1-a1, a1 on lattice, last coord makes up
    D=vals[0]-vals[1]
    N=256*K*np.e*(2*K*1/D)**2*(32/np.sqrt(np.e)+np.sqrt(np.log(2*K*T**2*(e**-(K-1)+1))))**2
    rad=16*(np.sqrt(2*np.e*np.log(T))+32)/np.sqrt(T)
    print('T',T,'eps',round(e,5),'Dmin',D,'N(eps)',f'{N:.3g}','radius at n=T',round(rad,3))
# holder_outside_xi: RTD optimistic law on R+: move mass w from 0 to M with w*M=rad
h=lambda u:np.sqrt(u)-u
rad=0.5
for M in [10,1e3,1e5]:
    w=rad/M; print('RTD: W1 dist',w*M,'U_h gain ~',(M-1)*h(w),' vs L*W1^q=',rad**0.5)
# max_p_one: dual power s=2 = 2u-u^2, p=(0.5,1) -> beta=2 (see bl_checks)
# appendix_n_eps: ETC grid size vs (1/eps)^(K-1)
from math import comb
for K in [2,3]:
    for m in [1,2,4]:
        print('grid K',K,'1/eps',m,'size',comb(m+K-1,K-1),'paper bound',m**(K-1))
# vacuous_at_experiments: ETC eps-dependent bound at T=1e5 (K=2,L=1,q=1,W=1/4)
T=1e5;N=2.112e16;W=0.25;print('ETC bound',(2+1/W)*(3*W*N/T),'trivial',0.25-0.09)
# gini orderwise: T exponents of ETC (gamma q r/2beta) and UCB (r kappa), q=1,r=2
for beta in [0.5,1,1.5,2,3]:
    q,r=1,2; g=2*beta/(2*beta+r); etc=g*q*r/(2*beta); kap=1/(2*beta/q+2)
    ucb = r*kap if r<=beta+q/2 else None
    print('beta',beta,'ETC T-exp',round(etc,4),'UCB T-exp',ucb)
# RTD case 1 (mixture, p*=1/4): r=2 needs L_MH = 1/(1/2+sqrt(pG))^2 up to 4
pg=np.linspace(0,0.2499,2000); rat=(0.5-np.sqrt(pg))**2/(0.25-pg)**2; print('RTD r=2 ratio max',rat.max())
