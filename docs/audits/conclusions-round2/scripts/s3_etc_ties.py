# ETC grid with the footnote (last coordinate absorbs the deficit), experiments' instance Bern(.4),Bern(.9), Gini
from fractions import Fraction as Fr
h=lambda u:u*(1-u)
for j in range(2,8):
    eps=Fr(16,10)/(2*j+1); pts=[]
    k=0
    while k*eps<=1:
        a1=k*eps; m=Fr(4,10)*a1+Fr(9,10)*(1-a1); pts.append((h(m),a1)); k+=1
    pts.sort(reverse=True)
    print("eps=%s 1/eps=%.4f top two:"%(eps,float(1/eps)),[(float(v),str(a)) for v,a in pts[:2]],"tie:",pts[0][0]==pts[1][0])
