# Delta_min(eps) for the paper's Gini instance Bern(0.4), Bern(0.9), K=2, exact rationals.
from fractions import Fraction as Fr
p1, p2 = Fr(2,5), Fr(9,10)
def V(a1):  # Gini of mixture a1*Bern(p1)+(1-a1)*Bern(p2) = p(1-p)
    p = a1*p1 + (1-a1)*p2
    return p*(1-p)
def dmin(grid):
    vals = sorted({V(a) for a in grid}, reverse=True)
    cnt_top = sum(1 for a in grid if V(a) == vals[0])
    if cnt_top > 1: return Fr(0), cnt_top
    return vals[0]-vals[1], 1
print("n | midpoint grid (eps=1/n, a1=(j+1/2)/n): Delta_min, #argmax | ETC grid (a1=j/n): Delta_min, #argmax")
zeros=[]
for n in range(2,41):
    mid = [Fr(2*j+1, 2*n) for j in range(n)]
    etc = [Fr(j, n) for j in range(n+1)]
    dm, cm = dmin(mid); de, ce = dmin(etc)
    if dm == 0: zeros.append(n)
    print(f"{n:2d} | {str(dm):>12} {float(dm):.3e} {cm} | {str(de):>12} {float(de):.3e} {ce}")
print("midpoint-grid n with Delta_min=0:", zeros)
