/*
 * mpi_info.c - the MPI API of info objects (MPI 3.1 chapter 9, with MPI
 * 4.0's MPI_Info_get_string and MPI_Info_create_env), on top of info.c.
 * Errors go to MPI_COMM_WORLD's handler: an info belongs to no
 * communicator.
 */
#include <string.h>

#include "simulator/info.h"
#include "simulator/sim_internal.h"

/* Returns from the MPI function when expr reports an error. */
#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int sim_try_rc_ = (expr);                                                                  \
        if (sim_try_rc_ != MPI_SUCCESS)                                                            \
            SIM_RETURN(sim_try_rc_);                                                               \
    } while (0)

int sim_info_arg(MPI_Comm comm, const char *fn, MPI_Info h, const sim_info **out) {
    *out = NULL;
    if (h == MPI_INFO_NULL)
        return MPI_SUCCESS;
    char *why = NULL;
    *out = sim_info_lookup(sim_self(), h, &why);
    if (*out)
        return MPI_SUCCESS;
    char buf[256];
    g_strlcpy(buf, why, sizeof buf);
    g_free(why);
    return sim_error(comm, MPI_ERR_INFO, "%s: info %s", fn, buf);
}

/* The info argument of an info call (MPI_INFO_NULL refused); with
 * `writable`, MPI_INFO_ENV is refused too. */
static int info_check(const char *fn, MPI_Info h, bool writable, sim_info **out) {
    char *why = NULL;
    *out = sim_info_lookup(sim_self(), h, &why);
    if (!*out) {
        char buf[256];
        g_strlcpy(buf, why, sizeof buf);
        g_free(why);
        return sim_error(MPI_COMM_NULL, MPI_ERR_INFO, "%s: info %s", fn, buf);
    }
    if (writable && sim_info_is_env(h))
        return sim_error(MPI_COMM_NULL, MPI_ERR_INFO,
                         "%s: info is MPI_INFO_ENV, which ordex keeps unchanged (MPI_Info_dup "
                         "makes a copy that may be changed)",
                         fn);
    return MPI_SUCCESS;
}

static int key_check(const char *fn, const char *key) {
    if (!key)
        return sim_error(MPI_COMM_NULL, MPI_ERR_INFO_KEY, "%s: key is NULL", fn);
    size_t n = strlen(key);
    if (n == 0)
        return sim_error(MPI_COMM_NULL, MPI_ERR_INFO_KEY, "%s: key is the empty string", fn);
    if (n > MPI_MAX_INFO_KEY)
        return sim_error(MPI_COMM_NULL, MPI_ERR_INFO_KEY,
                         "%s: key \"%.40s...\" has %zu characters, more than MPI_MAX_INFO_KEY "
                         "(%d)",
                         fn, key, n, MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

static int null_arg(const char *fn, const char *arg) {
    return sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
}

int PMPI_Info_create(MPI_Info *info) {
    SIM_ENTER("MPI_Info_create");
    TRY(sim_check_initialized());
    if (!info)
        SIM_RETURN(null_arg("MPI_Info_create", "info"));
    *info = sim_info_create(sim_self());
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Info_create);

int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info) {
    SIM_ENTER("MPI_Info_create_env");
    if (!info)
        SIM_RETURN(null_arg("MPI_Info_create_env", "info"));
    char *why = NULL;
    const sim_info *env = sim_info_lookup(sim_self(), MPI_INFO_ENV, &why);
    *info = sim_info_dup(sim_self(), env);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Info_create_env);

int PMPI_Info_set(MPI_Info info, const char *key, const char *value) {
    SIM_ENTER("MPI_Info_set");
    TRY(sim_check_initialized());
    sim_info *i;
    TRY(info_check("MPI_Info_set", info, true, &i));
    TRY(key_check("MPI_Info_set", key));
    if (!value)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_INFO_VALUE, "MPI_Info_set: value is NULL"));
    size_t n = strlen(value);
    if (n > MPI_MAX_INFO_VAL)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_INFO_VALUE,
                             "MPI_Info_set: the value of key \"%s\" has %zu characters, more than "
                             "MPI_MAX_INFO_VAL (%d)",
                             key, n, MPI_MAX_INFO_VAL));
    sim_call_args("key=\"%s\" value=\"%s\"", key, value);
    sim_info_set(i, key, value);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Info_set);

int PMPI_Info_delete(MPI_Info info, const char *key) {
    SIM_ENTER("MPI_Info_delete");
    TRY(sim_check_initialized());
    sim_info *i;
    TRY(info_check("MPI_Info_delete", info, true, &i));
    TRY(key_check("MPI_Info_delete", key));
    sim_call_args("key=\"%s\"", key);
    if (!sim_info_delete(i, key))
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_INFO_NOKEY,
                             "MPI_Info_delete: key \"%s\" is not set in info 0x%08x", key,
                             (unsigned)info));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Info_delete);

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag) {
    SIM_ENTER("MPI_Info_get");
    TRY(sim_check_initialized());
    sim_info *i;
    TRY(info_check("MPI_Info_get", info, false, &i));
    TRY(key_check("MPI_Info_get", key));
    if (valuelen < 0)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_get: valuelen %d is negative",
                             valuelen));
    if (!flag)
        SIM_RETURN(null_arg("MPI_Info_get", "flag"));
    const char *v = sim_info_get(i, key);
    *flag = v != NULL;
    if (!v)
        SIM_RETURN(MPI_SUCCESS);
    if (!value)
        SIM_RETURN(null_arg("MPI_Info_get", "value"));
    /* At most valuelen characters and the terminating NUL (MPI 3.1
     * section 9: a longer value is truncated). */
    size_t n = strlen(v);
    if (n > (size_t)valuelen)
        n = (size_t)valuelen;
    memcpy(value, v, n);
    value[n] = '\0';
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Info_get);

int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag) {
    SIM_ENTER("MPI_Info_get_string");
    TRY(sim_check_initialized());
    sim_info *i;
    TRY(info_check("MPI_Info_get_string", info, false, &i));
    TRY(key_check("MPI_Info_get_string", key));
    if (!buflen || !flag)
        SIM_RETURN(null_arg("MPI_Info_get_string", !buflen ? "buflen" : "flag"));
    if (*buflen < 0)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG,
                             "MPI_Info_get_string: *buflen %d is negative", *buflen));
    const char *v = sim_info_get(i, key);
    *flag = v != NULL;
    if (!v)
        SIM_RETURN(MPI_SUCCESS);
    int need = (int)strlen(v) + 1;
    /* *buflen 0 asks for the size only (MPI 4.0 section 10). */
    if (*buflen > 0) {
        if (!value)
            SIM_RETURN(null_arg("MPI_Info_get_string", "value"));
        g_strlcpy(value, v, (size_t)*buflen);
    }
    *buflen = need;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Info_get_string);

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag) {
    SIM_ENTER("MPI_Info_get_valuelen");
    TRY(sim_check_initialized());
    sim_info *i;
    TRY(info_check("MPI_Info_get_valuelen", info, false, &i));
    TRY(key_check("MPI_Info_get_valuelen", key));
    if (!valuelen || !flag)
        SIM_RETURN(null_arg("MPI_Info_get_valuelen", !valuelen ? "valuelen" : "flag"));
    const char *v = sim_info_get(i, key);
    *flag = v != NULL;
    if (v)
        *valuelen = (int)strlen(v);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Info_get_valuelen);

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys) {
    SIM_ENTER("MPI_Info_get_nkeys");
    TRY(sim_check_initialized());
    sim_info *i;
    TRY(info_check("MPI_Info_get_nkeys", info, false, &i));
    if (!nkeys)
        SIM_RETURN(null_arg("MPI_Info_get_nkeys", "nkeys"));
    *nkeys = sim_info_nkeys(i);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Info_get_nkeys);

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key) {
    SIM_ENTER("MPI_Info_get_nthkey");
    TRY(sim_check_initialized());
    sim_info *i;
    TRY(info_check("MPI_Info_get_nthkey", info, false, &i));
    int nkeys = sim_info_nkeys(i);
    if (n < 0 || n >= nkeys)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG,
                             "MPI_Info_get_nthkey: n = %d is out of range (the info has %d key%s)",
                             n, nkeys, nkeys == 1 ? "" : "s"));
    if (!key)
        SIM_RETURN(null_arg("MPI_Info_get_nthkey", "key"));
    strcpy(key, sim_info_nthkey(i, n)); /* at most MPI_MAX_INFO_KEY characters (key_check) */
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Info_get_nthkey);

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo) {
    SIM_ENTER("MPI_Info_dup");
    TRY(sim_check_initialized());
    sim_info *i;
    TRY(info_check("MPI_Info_dup", info, false, &i));
    if (!newinfo)
        SIM_RETURN(null_arg("MPI_Info_dup", "newinfo"));
    *newinfo = sim_info_dup(sim_self(), i);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Info_dup);

int PMPI_Info_free(MPI_Info *info) {
    SIM_ENTER("MPI_Info_free");
    TRY(sim_check_initialized());
    if (!info)
        SIM_RETURN(null_arg("MPI_Info_free", "info"));
    sim_info *i;
    TRY(info_check("MPI_Info_free", *info, false, &i));
    if (sim_info_is_env(*info))
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_INFO,
                             "MPI_Info_free: MPI_INFO_ENV is predefined and cannot be freed"));
    sim_info_free(sim_self(), *info);
    *info = MPI_INFO_NULL;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Info_free);
