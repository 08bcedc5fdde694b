"""Human-readable reports: the audit sheet (audit_sheet.py) and the analysis report."""
