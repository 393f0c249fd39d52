# beta = lim log Dmin(eps)/log eps for the paper's Gini instance (Bern(0.4),Bern(0.9)), eps=1/n
from fractions import Fraction as Fr
import math
p1,p2=Fr(2,5),Fr(9,10)
def V(a): p=a*p1+(1-a)*p2; return p*(1-p)
def dmin(grid):
    vs=sorted((V(a) for a in grid),reverse=True); return vs[0]-vs[1]
for name,mk in [("ETC",lambda n:[Fr(j,n) for j in range(n+1)]),("mid",lambda n:[Fr(2*j+1,2*n) for j in range(n)])]:
    rat=[]
    for n in range(200,1201,1):
        d=dmin(mk(n))
        rat.append(math.log(d)/math.log(1/n) if d>0 else math.inf)
    fin=[x for x in rat if x<math.inf]
    print(name,"n=200..1200: min ratio",round(min(fin),3),"max finite ratio",round(max(fin),3),"#n with Dmin=0:",len(rat)-len(fin))
# exponents: ETC q r/(2beta+r) vs UCB r/(2beta/q+2)
import sympy as sp
q,r,b=sp.symbols('q r beta',positive=True)
print("ETC exp - UCB exp =",sp.factor(sp.simplify(q*r/(2*b+r)-r/(2*b/q+2))))
for nm,(qq,rr) in {"Gini":(1,2),"RTD(paper r=1)":(sp.Rational(1,2),1),"RTD(r=2)":(sp.Rational(1,2),2),"MMD":(1,1)}.items():
    print(nm,"ETC exp",sp.simplify(qq*rr/(2*b+rr)),"UCB exp",sp.simplify(rr/(2*b/qq+2)))
print("PHT s=1/2 (q=r=1/2,beta=1): UCB r*kappa =",sp.Rational(1,2)/(2*1/sp.Rational(1,2)+2)," -> varpi exponent",2*sp.Rational(1,2)/(2*1/sp.Rational(1,2)+2))
