import numpy as np, sympy as sp
from fractions import Fraction as Fr
out=[]
def rep(k,v): out.append((k,v)); print(k,'::',v)
g=np.linspace(0,1,2001)
X,Y=np.meshgrid(g,g,indexing='ij')
M=X>Y
def sup_ratio(h,e=1.0,dom=M):
    d=(X-Y); r=(h(X)-h(Y))[dom]/(d[dom]**e); return r.max()
ies=lambda u: np.minimum(2*u,1)+np.minimum(1-2*u,0)
# inter-es L=2, q=1 (both directions)
rep('inter_es L_H sup ratio (x>y)', sup_ratio(ies)); rep('inter_es reverse', sup_ratio(lambda u:-ies(u)))
# exact: grid of rationals near 0 and 1/2
fr=[Fr(i,97) for i in range(98)]+[Fr(1,2),Fr(1,2)-Fr(1,10**9),Fr(1,2)+Fr(1,10**9)]
def iesF(u): return min(2*u,1)+min(1-2*u,0)
rep('inter_es exact max |dh|/|dx|', max(abs(iesF(a)-iesF(b))/abs(a-b) for a in fr for b in fr if a!=b))
# inter-es MH: p*=1/2 mixture: U(F*)-U(G) <= 2|1/2-p|
rep('inter_es MH mixture max', max((iesF(Fr(1,2))-iesF(b))/abs(Fr(1,2)-b) for b in fr if b!=Fr(1,2)))
# r.case2 solitary: h(p*)-h(x) <= 2|p*-x| x in [0,1/2] p*=max p <1/2 ; over all x in convex hull [min p, p*]
rep('inter_es case2 (p*<1/2) max ratio', max((iesF(a)-iesF(b))/(a-b) for a in fr for b in fr if b<a<=Fr(1,2)))
rep('inter_es case2 (p*>1/2) max ratio', max((iesF(a)-iesF(b))/(b-a) for a in fr for b in fr if Fr(1,2)<=a<b))
# quadratic L=1+s over s in [0,1]
x,y,s=sp.symbols('x y s',real=True)
hq=(1+s)*x-s*x**2; ratio=sp.simplify((hq-hq.subs(x,y))/(x-y)); rep('quadratic (h(x)-h(y))/(x-y)',ratio)
# max over x,y in[0,1] of (1+s)-s(x+y) is 1+s at x=y=0 (sup), min 1-s>=0
worst=max(float(((1+S)-S*(a+b))) for S in np.linspace(0,1,41) for a in np.linspace(0,1,41) for b in np.linspace(0,1,41))
rep('quadratic max slope minus (1+s) over grid', max(((1+S)-S*(a+b))-(1+S) for S in np.linspace(0,1,41) for a in np.linspace(0,1,41) for b in np.linspace(0,1,41)))
# cvar q=1, L_H=1/(1-a)
for al in [0,0.25,0.5,0.75,0.9,0.99,0.999]:
    h=lambda u: np.minimum(1,u/(1-al)); rep(f'cvar alpha={al} sup ratio*(1-al)', sup_ratio(h)*(1-al))
# PHT: L=1 on [0,tau]?  witness: F=delta_0, G=delta_tau
for tau,S in [(2,0.5),(1,0.5),(Fr(3,2),Fr(1,4))]:
    UG=tau; UF=0; W=tau
    rep(f'PHT tau={tau} s={S}: (U(G)-U(F))/W^s', float(UG-UF)/float(W)**float(S))
# PHT with tau<=1: random step CDFs
rng=np.random.default_rng(1); worst=0
for _ in range(3000):
    S=rng.uniform(0.01,0.99); n=5; at=np.sort(rng.uniform(0,1,n)); pf=rng.dirichlet(np.ones(n)); pg=rng.dirichlet(np.ones(n))
    xs=np.linspace(0,1,4001)[:-1]+1/8000
    F=np.array([pf[at<=t].sum() for t in xs]); G=np.array([pg[at<=t].sum() for t in xs])
    U=lambda C: ((1-C)**S).mean(); W=np.abs(F-G).mean()
    if W>1e-9: worst=max(worst,(U(F)-U(G))/W**S)
rep('PHT tau=1 random atoms max (U(F)-U(G))/W^s', worst)
# mean-median steps
mm=lambda u: min(u,1-u)
rep('MM case3 max (1-pF-pG)-(pF-pG), pG<1/2<pF', max((1-a-b)-(a-b) for a in fr for b in fr if b<Fr(1,2)<a))
rep('MM case3 identity', all(mm(a)-mm(b)==1-a-b for a in fr for b in fr if b<Fr(1,2)<a))
rep('MM case1 max (mm(a)-mm(b))-|a-b| same side', max((mm(a)-mm(b))-abs(a-b) for a in fr for b in fr if (a<Fr(1,2) and b<Fr(1,2)) or (a>Fr(1,2) and b>Fr(1,2))))
rep('IES case3 max 2(1-pF-pG)-2(pF-pG)', max(2*(1-a-b)-2*(a-b) for a in fr for b in fr if b<Fr(1,2)<a))
rep('IES case3 identity', all(iesF(a)-iesF(b)==2*(1-a-b) for a in fr for b in fr if b<Fr(1,2)<a))
# RTD last_lemm_1_2: (1/2-sqrt p)^2 <= |1/4-p|
pp=np.concatenate([np.linspace(0,1,200001),np.array([0.25-1e-12,0.25+1e-12])])
rep('RTD (1/2-sqrt p)^2-|1/4-p| max', ((0.5-np.sqrt(pp))**2-np.abs(0.25-pp)).max())
p=sp.symbols('p',nonnegative=True); rep('RTD symbolic |1/4-p|-(1/2-sqrt p)^2', sp.factor(sp.expand((sp.Rational(1,4)-p)-(sp.Rational(1,2)-sp.sqrt(p))**2)))
# Dual power U_h(Bern(p)) = h(p): integral of h(1-F) over [0,1) with 1-F=p
S=sp.symbols('s',positive=True); rep('DP def', sp.simplify(sp.integrate(1-(1-p)**S,(x,0,1))-(1-(1-p)**S)))
# UK_2: (a+1/t) t/(t+1) <= a+1/(t+1)
a,t=sp.symbols('a t',positive=True); rep('UK_2 rhs-lhs', sp.simplify(a+1/(t+1)-(a+1/t)*t/(t+1)))
# eq:m
T0,e,m=sp.symbols('T0 eps m',positive=True)
sol=sp.solve(sp.Eq(T0/(T0+m), e/2+1/(T0+m)),m); rep('eq:m solution of tightest m_finite', [sp.simplify(z-((2/e-1)*T0-2/e)) for z in sol])
# delta_order exponents
K,T,L,q,r,b,g,lg=sp.symbols('K T L q r beta gamma logT',positive=True)
eps=(K**(2+2/q)*T**(-g)*lg)**(q/(2*b))
D=sp.expand_power_base(sp.powsimp(sp.expand_power_base((K*eps)**r,force=True),force=True),force=True)
expo=lambda ex,v: sp.simplify(sp.diff(sp.expand_log(sp.log(ex),force=True),v)*v)
rep('delta_order exps K,T,logT', [expo(D,K)-(r+r*(q+1)/b), expo(D,T)+r*q*g/(2*b), expo(D,lg)-r*q/(2*b)])
# Discrete_order_CE: C5/T ~ K (logT)^{q/2} T^{-q/2} eps^{-q/2}
kap=1/(2*b/q+2); eps2=(K**(2/q)*lg/T)**kap
C5=K*lg**(q/2)*T**(-q/2)*eps2**(-q/2); P=(K**(2/q)*lg/T)**((1-kap)*q/2)
rep('CE exps diff K,T,logT',[expo(C5,v)-expo(P,v) for v in (K,T,lg)])
# other CE terms vs C5 with T>e^K : ratio K^{1+q}T^{-q} / C5 at K=log T
import math
for qq,bb in [(1,1),(0.5,1),(1,2)]:
    kk=1/(2*bb/qq+2)
    for TT in [1e3,1e6,1e12]:
        KK=math.log(TT); c5=KK*(math.log(TT))**(qq/2)*TT**(-qq/2)*((KK**(2/qq)*math.log(TT)/TT)**kk)**(-qq/2)
        rep(f'CE other/C5 q={qq} b={bb} T={TT:g} K=logT', (KK**(1+qq)*TT**(-qq)+KK/TT)/c5)
# p_max_def lambda
p1,p2,ps=sp.symbols('p1 p2 ps'); lam=(p2-ps)/(p2-p1); rep('lambda check', sp.simplify(lam*p1+(1-lam)*p2-ps))
# gini unique maximiser and non-unique for inter-ES alpha!=1/2 (outside context)
al=0.25; hh=lambda u: np.minimum(u/(1-al),1)+np.minimum((al-u)/(1-al),0); uu=np.linspace(0,1,10001); v=hh(uu)
rep('inter-ES alpha=1/4 argmax set (outside lemma context)', (uu[np.isclose(v,v.max())].min(), uu[np.isclose(v,v.max())].max()))
rep('gini argmax', uu[np.argmax(uu*(1-uu))])
# concavity_h supergradient for concave h's
hs={'dp3':(lambda u:1-(1-u)**3, lambda u:3*(1-u)**2),'q1':(lambda u:2*u-u**2,lambda u:2-2*u),'pht.25':(lambda u:u**0.25,lambda u:0.25*u**-0.75)}
for n,(h,dh) in hs.items():
    xs=np.linspace(1e-4,1,801); A,B=np.meshgrid(xs,xs); rep('supergradient min '+n, (h(A)-h(B)-dh(A)*(A-B)).min())
# concave 1: Jensen pointwise h(sum a u) >= sum a h(u)
mins=[]
for _ in range(2000):
    k=rng.integers(2,6); aw=rng.dirichlet(np.ones(k)); u=rng.uniform(0,1,k)
    for h in [lambda u:u*(1-u), lambda u:np.minimum(u,1-u), lambda u:np.sqrt(u)-u, lambda u:u**0.5, lambda u:1-(1-u)**10]:
        mins.append(h((aw*u).sum())-(aw*h(u)).sum())
rep('Jensen min', min(mins))
# solitary_best on mid-point grid: max <a,p> < p_K
def grid(K,eps):
    N=round(1/eps - K/2)
    def rec(k,n):
        if k==1: yield (n,); return
        for i in range(n+1):
            for rest in rec(k-1,n-i): yield (i,)+rest
    for nn in rec(K,N): yield [eps*(x+Fr(1,2)) for x in nn]
worst=None
for K_,ps_ in [(2,[Fr(3,10),Fr(4,5)]),(3,[Fr(0),Fr(1,2),Fr(1)]),(4,[Fr(0),Fr(1,10**6),Fr(2,10**6),Fr(1)])]:
    for ep in [Fr(1,5),Fr(1,10),Fr(2,11)]:
        if (1/ep-Fr(K_,2)).denominator!=1: continue
        mx=max(sum(ai*pi for ai,pi in zip(aa,ps_)) for aa in grid(K_,ep))
        rep(f'solitary_best K={K_} eps={ep}: max<a,p> - p_K', mx-ps_[-1])
open('checks_out.txt','w').write('\n'.join(f'{k} :: {v}' for k,v in out))
