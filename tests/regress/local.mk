# Test programs of tests/regress (see tests/idmapped/local.mk for the pattern).
