# The reference model (pure C, no syscalls): added to lib/libvfsidmap.a.
