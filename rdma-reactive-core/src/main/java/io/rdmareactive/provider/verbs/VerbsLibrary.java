package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;

/**
 * libibverbs, librdmacm and the few libc calls the provider needs, loaded by SONAME through
 * {@link SymbolLookup#libraryLookup(String, Arena)} and bound once for the control path: devices, protection domains,
 * registrations, completion queues, connection management. Every method here may block or make a system call; none
 * is called per message. The data-path entry points, which are {@code static inline} in {@code verbs.h}, are in
 * {@link VerbsDataPath}.
 *
 * <p>{@link #get()} loads the libraries the first time it is called and fails, then and on every later call, with a
 * {@link VerbsUnavailableException} that names the packages to install. The library names can be changed with the
 * system properties {@value #IBVERBS_PROPERTY} and {@value #RDMACM_PROPERTY} (used by the tests that prove that
 * message).
 */
final class VerbsLibrary {

    static final String IBVERBS_PROPERTY = "rdma.verbs.libibverbs";
    static final String RDMACM_PROPERTY = "rdma.verbs.librdmacm";
    static final String INSTALL_HINT = "install rdma-core's user-space libraries (Debian/Ubuntu: apt install "
        + "libibverbs1 librdmacm1 ibverbs-providers; RHEL/Fedora: dnf install libibverbs librdmacm rdma-core)";

    private static final Linker LINKER = Linker.nativeLinker();
    private static volatile Object loaded;

    // libibverbs
    final NativeCall getDeviceList;
    final NativeCall freeDeviceList;
    final NativeCall getDeviceName;
    final NativeCall queryDevice;
    final NativeCall queryPort;
    final NativeCall queryGid;
    final NativeCall allocPd;
    final NativeCall deallocPd;
    final NativeCall regMr;
    final NativeCall deregMr;
    final NativeCall createCq;
    final NativeCall destroyCq;
    final NativeCall createCompChannel;
    final NativeCall destroyCompChannel;
    final NativeCall getCqEvent;
    final NativeCall ackCqEvents;
    final NativeCall modifyQp;
    final NativeCall getAsyncEvent;
    final NativeCall ackAsyncEvent;
    // librdmacm
    final NativeCall getDevices;
    final NativeCall freeDevices;
    final NativeCall createEventChannel;
    final NativeCall destroyEventChannel;
    final NativeCall createId;
    final NativeCall destroyId;
    final NativeCall resolveAddr;
    final NativeCall resolveRoute;
    final NativeCall bindAddr;
    final NativeCall listen;
    final NativeCall connect;
    final NativeCall accept;
    final NativeCall reject;
    final NativeCall disconnect;
    final NativeCall createQp;
    final NativeCall destroyQp;
    final NativeCall getCmEvent;
    final NativeCall ackCmEvent;
    final NativeCall getSrcPort;
    // libc
    final NativeCall poll;
    final NativeCall fcntl;
    final NativeCall getrlimit;

    private VerbsLibrary(final SymbolLookup verbs, final SymbolLookup cm, final SymbolLookup libc) {
        getDeviceList = NativeCall.bindErrno(verbs, "ibv_get_device_list", FunctionDescriptor.of(ADDRESS, ADDRESS));
        freeDeviceList = NativeCall.bind(verbs, "ibv_free_device_list", FunctionDescriptor.ofVoid(ADDRESS));
        getDeviceName = NativeCall.bind(verbs, "ibv_get_device_name", FunctionDescriptor.of(ADDRESS, ADDRESS));
        queryDevice = NativeCall.bind(verbs, "ibv_query_device", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        queryPort = NativeCall.bind(verbs, "ibv_query_port",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS));
        queryGid = NativeCall.bind(verbs, "ibv_query_gid",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_INT, ADDRESS));
        allocPd = NativeCall.bindErrno(verbs, "ibv_alloc_pd", FunctionDescriptor.of(ADDRESS, ADDRESS));
        deallocPd = NativeCall.bind(verbs, "ibv_dealloc_pd", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        regMr = NativeCall.bindErrno(verbs, "ibv_reg_mr",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));
        deregMr = NativeCall.bind(verbs, "ibv_dereg_mr", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createCq = NativeCall.bindErrno(verbs, "ibv_create_cq",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        destroyCq = NativeCall.bind(verbs, "ibv_destroy_cq", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createCompChannel = NativeCall.bindErrno(verbs, "ibv_create_comp_channel",
            FunctionDescriptor.of(ADDRESS, ADDRESS));
        destroyCompChannel = NativeCall.bind(verbs, "ibv_destroy_comp_channel", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getCqEvent = NativeCall.bindErrno(verbs, "ibv_get_cq_event",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        ackCqEvents = NativeCall.bind(verbs, "ibv_ack_cq_events", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT));
        modifyQp = NativeCall.bind(verbs, "ibv_modify_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        getAsyncEvent = NativeCall.bindErrno(verbs, "ibv_get_async_event",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        ackAsyncEvent = NativeCall.bind(verbs, "ibv_ack_async_event", FunctionDescriptor.ofVoid(ADDRESS));

        getDevices = NativeCall.bindErrno(cm, "rdma_get_devices", FunctionDescriptor.of(ADDRESS, ADDRESS));
        freeDevices = NativeCall.bind(cm, "rdma_free_devices", FunctionDescriptor.ofVoid(ADDRESS));
        createEventChannel = NativeCall.bindErrno(cm, "rdma_create_event_channel", FunctionDescriptor.of(ADDRESS));
        destroyEventChannel = NativeCall.bind(cm, "rdma_destroy_event_channel", FunctionDescriptor.ofVoid(ADDRESS));
        createId = NativeCall.bindErrno(cm, "rdma_create_id",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        destroyId = NativeCall.bindErrno(cm, "rdma_destroy_id", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        resolveAddr = NativeCall.bindErrno(cm, "rdma_resolve_addr",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        resolveRoute = NativeCall.bindErrno(cm, "rdma_resolve_route",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        bindAddr = NativeCall.bindErrno(cm, "rdma_bind_addr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        listen = NativeCall.bindErrno(cm, "rdma_listen", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        connect = NativeCall.bindErrno(cm, "rdma_connect", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        accept = NativeCall.bindErrno(cm, "rdma_accept", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        reject = NativeCall.bindErrno(cm, "rdma_reject",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_BYTE));
        disconnect = NativeCall.bindErrno(cm, "rdma_disconnect", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createQp = NativeCall.bindErrno(cm, "rdma_create_qp",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        destroyQp = NativeCall.bind(cm, "rdma_destroy_qp", FunctionDescriptor.ofVoid(ADDRESS));
        getCmEvent = NativeCall.bindErrno(cm, "rdma_get_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        ackCmEvent = NativeCall.bind(cm, "rdma_ack_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getSrcPort = NativeCall.bind(cm, "rdma_get_src_port", FunctionDescriptor.of(JAVA_SHORT, ADDRESS));

        poll = NativeCall.bindErrno(libc, "poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        fcntl = NativeCall.bindErrno(libc, "fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
        getrlimit = NativeCall.bindErrno(libc, "getrlimit", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    }

    /**
     * @return the bound libraries
     * @throws VerbsUnavailableException if they are not installed; the message names the packages
     */
    static VerbsLibrary get() {
        Object result = loaded;
        if (result == null) {
            synchronized (VerbsLibrary.class) {
                result = loaded;
                if (result == null) {
                    result = load();
                    loaded = result;
                }
            }
        }
        if (result instanceof VerbsLibrary library) {
            return library;
        }
        throw new VerbsUnavailableException((String) result);
    }

    private static Object load() {
        return load(System.getProperty(IBVERBS_PROPERTY, "libibverbs.so.1"),
            System.getProperty(RDMACM_PROPERTY, "librdmacm.so.1"));
    }

    /** @return the bound libraries, or the message saying why they cannot be loaded */
    static Object load(final String verbsName, final String cmName) {
        final SymbolLookup verbs;
        final SymbolLookup cm;
        try {
            verbs = SymbolLookup.libraryLookup(verbsName, Arena.global());
        } catch (final IllegalArgumentException | IllegalCallerException ex) {
            return "the verbs library " + verbsName + " cannot be loaded (" + ex.getMessage() + "): " + INSTALL_HINT;
        }
        try {
            cm = SymbolLookup.libraryLookup(cmName, Arena.global());
        } catch (final IllegalArgumentException | IllegalCallerException ex) {
            return "the RDMA connection manager library " + cmName + " cannot be loaded (" + ex.getMessage() + "): "
                + INSTALL_HINT;
        }
        try {
            return new VerbsLibrary(verbs, cm, LINKER.defaultLookup());
        } catch (final VerbsUnavailableException ex) {
            return ex.getMessage();
        }
    }

    // ------------------------------------------------------------------------------------------------ typed calls

    /** Calls a function returning a pointer and setting errno; returns the pointer, or NULL with errno in capture. */
    static MemorySegment pointer(final NativeCall call, final MemorySegment capture, final Object... args) {
        try {
            final Object[] all = new Object[args.length + 1];
            all[0] = capture;
            System.arraycopy(args, 0, all, 1, args.length);
            return (MemorySegment) call.handle().invokeWithArguments(all);
        } catch (final RuntimeException | Error ex) {
            throw ex;
        } catch (final Throwable ex) {
            throw new IllegalStateException(call.name() + " failed", ex);
        }
    }

    /** Calls a function returning an int; errno-capturing functions take the capture segment first. */
    static int integer(final NativeCall call, final MemorySegment capture, final Object... args) {
        try {
            if (call.capturesErrno()) {
                final Object[] all = new Object[args.length + 1];
                all[0] = capture;
                System.arraycopy(args, 0, all, 1, args.length);
                return (int) call.handle().invokeWithArguments(all);
            }
            return (int) call.handle().invokeWithArguments(args);
        } catch (final RuntimeException | Error ex) {
            throw ex;
        } catch (final Throwable ex) {
            throw new IllegalStateException(call.name() + " failed", ex);
        }
    }

    /** Calls a function without errno and returns what it returns. */
    static Object plain(final NativeCall call, final Object... args) {
        try {
            return call.handle().invokeWithArguments(args);
        } catch (final RuntimeException | Error ex) {
            throw ex;
        } catch (final Throwable ex) {
            throw new IllegalStateException(call.name() + " failed", ex);
        }
    }

    /** @return a C string as Java text, or an empty string for NULL */
    static String string(final MemorySegment cString) {
        if (cString.equals(MemorySegment.NULL)) {
            return "";
        }
        return cString.reinterpret(4096).getString(0);
    }
}
