from mpmath import mp, mpf, sqrt, log, e, exp
mp.dps=30
# UP_ETC_eqn1: arms delta_0, delta_b (centred 1-sub-Gaussian, variance 0), h(u)=u, K=2, eps=1 (vertex grid), q=1, L=1
b=mpf(1000); K=2; L=1; q=1; Dmin=b; W=b/2; B=b; eps=1
for T in [15,20,50]:
    N=256*e*K*(2*K*L/Dmin)**(2/q)*(sqrt(log(2*K*T**2*(eps**(1-K)+1)))+32*exp(-0.5))**2
    lhs=B/T**2+L*K*(3*W*N/T)**q; rhs=(L*K+W**-q)*(3*W*N/T)**q
    print('T',T,'N',N,'T>N',T>N,'B/T^2',B/T**2,'(N/T)^q',(N/T)**q,'lhs',lhs,'rhs',rhs,'holds',lhs<=rhs)
# concentration display at small y, tau=1, Bern(1/2): LHS = P(W1(F_hat,F)>y) = 1 for y<1/2
tau=1; y=mpf('0.001')
print('conc bound', 2*exp(-tau/(256*e)*(y-512/sqrt(tau))**2))
# UUB_1 q=1/2: K^{1-q} max tau^{-q/2} vs sum tau^{-q/2}
q=mpf(1)/2; taus=[1,10**6]
print('UUB_1', 2**(1-q)*max(t**(-q/2) for t in taus), sum(t**(-q/2) for t in taus))
