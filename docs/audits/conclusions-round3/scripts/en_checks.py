import numpy as np, sympy as sp
rng=np.random.default_rng(1)
P=rng.uniform(0,1,(200000,2)); a,b=P[:,0],P[:,1]; d=np.abs(a-b)+1e-300
# #20/#24 dual power L=s over all Bernoulli pairs (adversarial near 0)
for s in [2,2.5,3,5]:
    h=lambda u:1-(1-u)**s; aa=np.r_[a,1e-9];bb=np.r_[b,0.0]
    print('dualpow s',s,'max ratio',np.max(np.abs(h(aa)-h(bb))/(np.abs(aa-bb)+1e-300)))
# #21 gini L=1 ; #23 quadratic L=1+s
g=lambda u:u*(1-u); print('gini max ratio',np.max(np.abs(g(a)-g(b))/d))
for s in [0,0.5,1]:
    h=lambda u:(1+s)*u-s*u*u; print('quad s',s,'max ratio',np.max(np.abs(h(a)-h(b))/d))
# #22 mean-median r (solitary, max p<1/2): U*-U(G) <= 1*W ; h=min(u,1-u)
mm=lambda u:np.minimum(u,1-u); pm=rng.uniform(0,0.5,1000); pg=pm*rng.uniform(0,1,1000)
print('mm solitary max ratio',np.max((mm(pm)-mm(pg))/(pm-pg+1e-300)))
# #6 algebra: bound = 1/delta with delta in the log
K,q,L,D,eps,delta=2,1,1,0.2856,0.5,0.807699
E=(1/eps)**(K-1); s=np.sqrt(np.log(2*K*delta*(E+1))); n=256*np.e*(2*K*L/D)**(2/q)*(32/np.sqrt(np.e)+s)**2
y=(D/(2*K*L))**(1/q); print('#6 bound',2*K*(E+1)*np.exp(-n/(256*np.e)*(y-512/np.sqrt(n))**2),'1/delta',1/delta,'delta',delta)
# #5 tie at eps=8/25 on the ETC grid (footnote), experiments' instance
e=sp.Rational(8,25); pts=[k*e for k in range(int(1/e)+1)]; V=[ (sp.Rational(9,10)-sp.Rational(1,2)*x)*(1-(sp.Rational(9,10)-sp.Rational(1,2)*x)) for x in pts]
print('#5 eps=8/25 V',sorted(V,reverse=True)[:2])
# #13 theorem:W centred reading: delta_0, delta_6 -> W = 3
print('#13 W(delta0,delta6)=',6/2,'>',np.sqrt(2*np.pi))
# #15 small-scale oversampling: T0=10, eps=1/12, T(eps)=(2/eps)(T0-1)=216, forced exploration 200/arm round robin
a_star=np.array([19/24,5/24]); tau=np.zeros(2); viol=None
for t in range(1,1000):
    if t<=400: i=(t-1)%2
    else: i=int(np.argmax(t*a_star-tau))  # rule uses counts before pull
    tau[i]+=1
    if t>216 and np.any(tau/t>a_star+1/t) and viol is None: viol=(t,tau.copy())
print('#15 first t>T(eps) with O_t nonempty:',viol)
# #36 Hoeffding vs printed bound for y>=512/sqrt(n)
for y in [1,0.5,0.25]:
    for n in [(512/y)**2,4*(512/y)**2]:
        print('#36 y',y,'n',n,'hoeff exp',2*n*y*y,'printed exp',n/(256*np.e)*(y-512/np.sqrt(n))**2)
# #10 K^q vs K
for qq in [0.5,1]:
    print('#10 q',qq,'K^q',2**qq,'K',2)
# #0/#1 rsb's spike witness: crude optimistic values at T (budget = sum a_i r_i moved to lower mixture survival into [0.3999,0.4) on [0,l))
T=2842665297565; S=np.sqrt(2*np.e*np.log(T))+32
def opt(a,tau,pbar):
    r=16*S/np.sqrt(np.array(tau)); bud=np.dot(a,r); dlt=pbar-0.39995; l=min(1,bud/dlt); return (pbar-0.4)*(1-l)+l
p=np.array([0.4,0.42])
for name,tau in [('counts track wrong pt',(0.75*T,0.25*T)),('counts track optimal pt',(0.25*T,0.75*T))]:
    w=opt([0.75,0.25],tau,0.75*0.4+0.25*0.42); o=opt([0.25,0.75],tau,0.25*0.4+0.75*0.42)
    print('#0',name,'UCB(wrong)=%.4f UCB(opt)=%.4f'%(w,o))
print('#0 bound',2.01*64/np.sqrt(0.5*0.9*T)*S+0.005,'regret tracking wrong',0.02-0.005)
