# CANN drop-in: the tensor getters from C++ (arrays freed with delete[], as CANN's users do).
sg_host_program(acl_getters_cxx acl_getters.cpp "" "")
