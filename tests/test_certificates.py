"""Certificates: proofs of the printed Hölder claims on their whole stated domain, re-checked by the kernel alone.

Two routes: the prover (z3, arb branch and bound) makes a certificate; the kernel re-derives every obligation from
the certificate's data and re-runs it.  A mutant of a certified claim (a constant halved) must fail to certify,
and a tampered certificate must fail its re-check, naming the entry.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from dataclasses import replace

import pytest

from proofs_checks import paper_claims
from proofs_checks.certificates import PROVED, kernel
from proofs_checks.certificates.recheck import recheck_entries
from proofs_checks.claims import Claim
from proofs_checks.ledger import CheckResult

pytest.importorskip("z3")
pytest.importorskip("flint")


def _entry(ident: str, row, status: str = "verified") -> CheckResult:
    from proofs_checks.certificates import attach

    claim = Claim(ident, row, lambda c: None)
    res = CheckResult(ident, "claim", "paper", "derived", status, "symbolic", "evidence")
    return attach(claim, res)


def test_quadratic_L_is_decided_on_its_whole_range():
    row = paper_claims.risk_row("quadratic")
    res = _entry("table:table_risks#quadratic.L", row)
    cert = res.certificate
    assert cert["kind"] == "decision" and cert["whole"] is True
    assert cert["domain"]["data"]["params"] == {"s": ["0", "1", False, False]}
    assert all(line.startswith("decision") for line in kernel.recheck(cert))


def test_pht_q_is_proved_by_interval_branch_and_bound_on_the_open_range():
    row = paper_claims.risk_row("pht")
    cert = _entry("table:table_risks#pht.q", row).certificate
    assert cert["kind"] == "interval" and cert["whole"] is True
    assert "s in (0, 1)" in cert["domain"]["words"]
    assert kernel.recheck(cert)


@pytest.mark.parametrize("key, column, halved", [("quadratic", "L", "(1+s)/2"), ("pht", "L", "1/2"),
                                                 ("gini", "L", "1/2")])
def test_a_constant_halved_fails_to_certify(key, column, halved):
    row = replace(paper_claims.risk_row(key), **{column: halved})
    cert = _entry(f"table:table_risks#{key}.{column}", row).certificate
    assert cert["kind"] not in PROVED
    assert "attempt failed" in cert["attempt"]


def test_a_tampered_certificate_fails_its_recheck_naming_the_entry():
    row = paper_claims.risk_row("quadratic")
    res = _entry("table:table_risks#quadratic.L", row)
    good = res.to_dict()
    assert recheck_entries([good])[1] == []
    bad = copy.deepcopy(good)
    part = bad["certificate"]["parts"][0]
    part["expr"] = part["expr"].replace("s + 1", "(s + 1)/2") if "s + 1" in part["expr"] else part["expr"] + " - 1"
    ok, fails = recheck_entries([bad])
    assert fails and fails[0].startswith("table:table_risks#quadratic.L:")
    # the interval kind: a tampered constant makes a leaf fail
    cert = _entry("table:table_risks#pht.q", paper_claims.risk_row("pht")).certificate
    tampered = copy.deepcopy(cert)
    for p in tampered["parts"]:
        p["expr"] = "2*(" + p["expr"] + ") + 1"
    with pytest.raises(kernel.KernelError):
        kernel.recheck(tampered)


def test_the_recheck_imports_no_check_module(tmp_path):
    row = paper_claims.risk_row("gini")
    entries = [_entry("table:table_risks#gini.L", row).to_dict()]
    path = tmp_path / "ledger.json"
    path.write_text(json.dumps({"entries": entries}), encoding="utf-8")
    code = ("import sys; from proofs_checks.certificates.recheck import recheck_file; "
            f"ok, bad = recheck_file({str(path)!r}); assert ok and not bad, bad; "
            "mods = [m for m in sys.modules if m.startswith('proofs_checks.checks') or m.startswith('rsb_sim')]; "
            "assert not mods, mods; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_rsb_verify_recheck_names_the_entry_whose_certificate_fails():
    from rsb_sim.files import CorruptFile

    from proofs_checks.cli.verify import _recheck

    res = _entry("table:table_risks#gini.L", paper_claims.risk_row("gini"))
    assert _recheck([res]).endswith("all hold.")
    cert = copy.deepcopy(res.certificate)
    cert["parts"][0]["expr"] = cert["parts"][0]["expr"].replace("Abs(x - y)", "Abs(x - y)/2")
    cert["parts"][0]["expr"] += " + 1/100"  # a constant altered
    with pytest.raises(CorruptFile, match="table:table_risks#gini.L"):
        _recheck([replace(res, certificate=cert)])


def test_a_refuted_item_carries_its_counterexample_rechecked_exactly():
    item = paper_claims.lemma_claim("lemma:RTD#summary")  # "L=1; q=1" for h = sqrt(u) - u
    cert = _entry("lemma:RTD#summary", item, status="refuted").certificate
    assert cert["kind"] == "enumeration" and cert["whole"] is False
    assert "counterexample" in cert["domain"]["words"]
    assert kernel.recheck(cert)
