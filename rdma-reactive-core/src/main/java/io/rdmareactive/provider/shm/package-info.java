/**
 * The shared-memory provider, {@code shm}: a real transport between processes on one host that behaves like an RDMA
 * adapter, so that every machine can run the whole stack.
 *
 * <h2>How it maps verbs onto shared memory</h2>
 * <ul>
 *   <li><b>Registered memory</b> is a memory-mapped file in the device's directory (default
 *   {@code /dev/shm/rdma-reactive-USER}, mode 0700; files 0600), unlinked when the region is deregistered. Each
 *   device publishes its registrations in a region table file ({@link io.rdmareactive.provider.shm.RegionTable});
 *   keys embed the table index and a generation, so a key dies with its registration.</li>
 *   <li><b>Work requests execute on the posting thread</b>, which plays the adapter: it checks every lkey, rkey,
 *   range and access flag against the region tables, copies between the two processes' mappings, takes the peer's
 *   posted receive (compare-and-set on the receive queue in the peer's queue pair file) and writes the completions.
 *   A successful post has completed when it returns; nothing on that path allocates, locks or throws.</li>
 *   <li><b>Completion queues</b> are Agrona many-to-one rings in files of their own, so a peer's posting thread can
 *   complete this process's receives. A full completion queue is an overrun, fatal as on verbs.</li>
 *   <li><b>Errors</b> behave as on hardware: the failing request completes with its verbs status
 *   ({@code IBV_WC_REM_ACCESS_ERR} for a bad rkey, a range outside the region or missing access;
 *   {@code IBV_WC_RNR_RETRY_EXC_ERR} when the peer has no receive posted; {@code IBV_WC_LOC_LEN_ERR} on a receive
 *   too small for a SEND), the queue pair enters the error state and flushes its receives with
 *   {@code IBV_WC_WR_FLUSH_ERR}; where the peer is at fault too, its queue pair follows.</li>
 *   <li><b>Connection management</b> runs over a UNIX-domain socket per connection ({@code <directory>/<name>.sock}
 *   for listeners): connect, accept and reject with at most 56 bytes of private data (as rdma_cm allows), then
 *   disconnect and error notices. One thread per device ({@code rdma-shm-cm-*}) watches the sockets; a peer
 *   process that exits or is killed closes its sockets, so its death is noticed at once.</li>
 * </ul>
 *
 * <h2>Where it differs from verbs</h2>
 * <ul>
 *   <li>Peers are on the same host ({@link io.rdmareactive.spi.DeviceCapability#DIRECT_PEER_ACCESS}, no
 *   {@code CROSS_HOST}).</li>
 *   <li>Memory that peers access (remote access flags, receive buffers) must be mapped from a file in the device's
 *   directory:
 *   {@link io.rdmareactive.spi.RdmaDevice#allocateRegion(long, int)} or
 *   {@link io.rdmareactive.ring.OffHeapMemory#mapFile}.</li>
 *   <li>Sends complete before the post returns, but a send request keeps its place in the send queue until its
 *   completion (or a later one) is polled, as on verbs, so {@code PostStatus.QUEUE_FULL} comes at the same point.
 *   A receive queue slot is reused only once its completion has been polled.</li>
 * </ul>
 */
package io.rdmareactive.provider.shm;
