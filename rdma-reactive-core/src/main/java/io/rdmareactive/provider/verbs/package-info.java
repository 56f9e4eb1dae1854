/**
 * The verbs provider, {@code verbs}: RDMA adapters through libibverbs and librdmacm, bound with Java 25's foreign
 * function and memory API (no JNI, nothing native to build).
 *
 * <h2>The binding</h2>
 * <ul>
 *   <li>{@code libibverbs.so.1} and {@code librdmacm.so.1} are loaded by SONAME ({@code VerbsLibrary}); a missing
 *   library is reported once, naming the packages to install. Control-path calls that report through {@code errno}
 *   capture it with {@code Linker.Option.captureCallState("errno")}.</li>
 *   <li>{@code ibv_post_send}, {@code ibv_post_recv} and {@code ibv_poll_cq} are {@code static inline} in
 *   {@code verbs.h}: {@code VerbsDataPath} calls them through the function pointers of the context's {@code ops},
 *   read once per queue pair and completion queue; polling and posting receives are {@code critical} calls.</li>
 *   <li>Every C structure is declared once, as a {@code MemoryLayout} ({@code VerbsLayouts}); a test compiles a C
 *   program against the installed headers and compares every size and offset.</li>
 * </ul>
 *
 * <h2>The provider</h2>
 * <ul>
 *   <li>Devices come from {@code rdma_get_devices}, so that the connection manager's identifiers, the protection
 *   domain, registrations and queue pairs share one context. {@code auto} picks verbs where a device has an active
 *   port ({@code VerbsDeviceProbe} says why not otherwise: no library, no kernel support, no device, port down).</li>
 *   <li>Registered memory is page-aligned memory the region holds a lease on; it is deregistered once the queue pairs
 *   that used it have completed the work they had posted, and freed after that. The limit on registered bytes is
 *   {@code RLIMIT_MEMLOCK} unless the process has {@code CAP_IPC_LOCK}; going past it fails with a message naming
 *   {@code ulimit -l} and {@code LimitMEMLOCK}.</li>
 *   <li>Queue pairs are reliable connected ({@code IBV_QPT_RC}), created by {@code rdma_create_qp} and connected by
 *   rdma_cm over the TCP port space; addresses are {@code host:port} of the RDMA interface. Private data is framed
 *   with its length so it arrives exactly (the CM pads it): 55 bytes in a connect or accept, 147 in a reject.</li>
 *   <li>One thread per device ({@code rdma-verbs-cm-<device>}) reads connection-manager and asynchronous events from
 *   non-blocking files; disconnects and queue pair errors become {@link io.rdmareactive.spi.ConnectionEvent}s.</li>
 * </ul>
 *
 * <h2>Where it differs from the shared-memory provider</h2>
 * <ul>
 *   <li>A peer process that dies is disconnected by its kernel, so the survivor sees
 *   {@link io.rdmareactive.spi.ConnectionEvent.Type#DISCONNECTED}, not {@code PEER_LOST}; a peer whose host or path
 *   dies is noticed by the transport's retries ({@code IBV_WC_RETRY_EXC_ERR}) or the protocol's keepalive.</li>
 *   <li>Posting to a queue pair is thread-confined: one thread posts sends, one posts receives.</li>
 * </ul>
 */
package io.rdmareactive.provider.verbs;
