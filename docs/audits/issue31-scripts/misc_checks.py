import math, numpy as np
from scipy import integrate, stats
print("== example utility at p=1/2 ==")
g=lambda p:p*(1-p); p=0.5
print("U(mix)=",g(0.5*p+0.5*(1-p)),"max U(F_i)=",max(g(p),g(1-p)), "strict > holds?", g(0.5)>max(g(p),g(1-p)))

print("== theorem:W ==")
c = integrate.quad(lambda t: min(1.0, 2*math.exp(-t*t/2)), 0, 50, points=[math.sqrt(2*math.log(2))])[0]
print("tail reading P(|X|>t)<=2e^{-t^2/2}: sup pairwise W1 =",c," sup W = c/2 =",c/2," paper bound sqrt(2pi)=",math.sqrt(2*math.pi))
print("centered reading: arms delta_0, delta_6 (both 1-sub-Gaussian, variance 0): W = 6/2 =",3.0,"> sqrt(2pi)")

print("== PHT lemma, support [0,tau], tau=4, s=1/2 ==")
tau,s,cc=4.0,0.5,0.01
UG=tau*cc**s; UF=0.0; Wd=tau*cc
print("U(G)-U(F)=",UG," ||F-G||_W^s=",Wd**s," ratio=",UG/Wd**s," (=tau^(1-s)=",tau**(1-s),")")

print("== RTD: h(u)=sqrt(u)-u ==")
U=lambda p: math.sqrt(p)-p
pa,pb=0.02,0.01
print("closing summary q=1,L=1: U(.02)-U(.01)=",U(pa)-U(pb)," vs |dp|=",pa-pb)
# mixture exponent r=2 in the mixture case: (1/2-sqrt p)^2 / (p-1/4)^2 bounded
ps=np.linspace(0,1,100001); ps=ps[np.abs(ps-0.25)>1e-9]
print("sup (U*-U(p))/|p-1/4|^2 over p in[0,1] =",np.max((0.25-(np.sqrt(ps)-ps))/(ps-0.25)**2)," -> r=2 valid (L_MH<=4)")
# solitary case, e.g. p in [0.3,0.6] (min>0.25): p*=0.3 best? U decreasing on [1/4,1] -> optimum p=0.3
ps=np.linspace(0.3,0.6,10001)[1:]
print("min p>0.25 case: sup (U(0.3)-U(p))/|p-0.3| =",np.max((U(0.3)-(np.sqrt(ps)-ps))/(ps-0.3))," -> r=1 valid")

print("== beta lemma counterexample: dual power s=2 (=quadratic s=1), arms Bern(0.5),Bern(1), midpoint grid ==")
h=lambda u:1-(1-u)**2
for n in [10,100,1000,10000]:
    e=1.0/n; a2=[(j+0.5)/n for j in range(n)]
    v=sorted([h((1-x)*0.5+x*1.0) for x in a2],reverse=True)
    d=v[0]-v[1]; print(f"eps={e:g}: Delta_min={d:.3e}, Delta_min/eps^2={d/e**2:.4f}, log Dmin/log eps={math.log(d)/math.log(e):.4f}")

print("== Delta_error lemma, midpoint grid, K=3, eps=2/5, mean h(u)=u, arms Bern(.2),Bern(.2),Bern(.8) ==")
eps=0.4; p=np.array([.2,.2,.8]); Wc=0.6/2; Lc=1; r=1; K=3
grid=[]
for n1 in range(3):
    for n2 in range(3):
        for n3 in range(3):
            a=eps*(np.array([n1,n2,n3])+0.5)
            if abs(a.sum()-1)<1e-12: grid.append(a)
best=max(grid,key=lambda a:a@p)
print("grid:",[tuple(np.round(a,2)) for a in grid]," a*=",best," Delta(eps)=",0.8-best@p," bound L(KW)^r(eps/2)^r=",Lc*(K*Wc)**r*(eps/2)**r)

print("== ETC proof: number of grid points vs (1/eps)^(K-1) ==")
from math import comb
for K in [2,3]:
    for n in [2,3,4,10]:
        print(f"K={K}, 1/eps={n}: |grid|={comb(n+K-1,K-1)} vs (1/eps)^(K-1)={n**(K-1)}")

print("== UCB proof claim 2-(2/T^2+1)^K>1/2 for all T>=3,K>=2 ==")
print("K=3,T=3:",2-(2/9+1)**3)
