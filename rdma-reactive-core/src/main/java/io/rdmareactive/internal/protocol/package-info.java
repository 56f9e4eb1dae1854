/**
 * The wire protocol of rdma-reactive: what the bytes in a stream ring, an immediate and the rdma_cm private data
 * mean. Written once against the SPI, so that every provider carries the same frames.
 *
 * <h2>What lives here</h2>
 * <ul>
 *   <li>Frame flyweights over Agrona buffers, each with its layout drawn in its Javadoc:
 *   {@link io.rdmareactive.internal.protocol.FrameHeaderFlyweight} (the 8-byte header of every frame) and the
 *   control frame bodies {@link io.rdmareactive.internal.protocol.RequestNFlyweight},
 *   {@link io.rdmareactive.internal.protocol.StreamControlFlyweight} (CANCEL, COMPLETE, CLOSE),
 *   {@link io.rdmareactive.internal.protocol.ErrorFrameFlyweight},
 *   {@link io.rdmareactive.internal.protocol.OpenFrameFlyweight} and
 *   {@link io.rdmareactive.internal.protocol.KeepaliveFlyweight}. DATA frames are the header and the message (or
 *   fragment) bytes, encoded in place by a codec.</li>
 *   <li>{@link io.rdmareactive.internal.protocol.ImmediateCodec}: the (stream, advance) pair in the 32-bit immediate
 *   of each RDMA WRITE WITH IMMEDIATE into a peer's ring.</li>
 *   <li>{@link io.rdmareactive.internal.protocol.HandshakeFlyweight} and
 *   {@link io.rdmareactive.internal.protocol.RejectFlyweight}: the connection manager's private data, and the layout
 *   of the receive region a handshake describes.</li>
 * </ul>
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>Little-endian everywhere (what every RDMA host this project targets is), so fields are plain loads.</li>
 *   <li>Frames start at multiples of 8; each ends where its length says, and the next starts at the length rounded
 *   up to 8. A PAD frame fills a ring's tail, so no frame crosses the ring's end; ring positions and immediate
 *   advances are multiples of 8.</li>
 *   <li>Everything a peer writes is untrusted. {@link io.rdmareactive.internal.protocol.FrameHeaderFlyweight#check}
 *   and the {@code check} of each body return a {@link io.rdmareactive.internal.protocol.FrameCheck} code, read only
 *   inside the range they were given (proved before each read), never throw and never allocate. A receiver checks
 *   the header, then the body of a control frame, and only then reads fields through a flyweight; any code but
 *   {@code OK} is a protocol error that closes the connection, with
 *   {@link io.rdmareactive.internal.protocol.FrameCheck#describe(int)} saying why.</li>
 *   <li>Hot path (frames and immediates): no allocation, lock or exception per message; flyweights are wrapped and
 *   reused. Connection setup (handshake, reject) and error messages are the cold path and may allocate their
 *   Strings.</li>
 * </ul>
 *
 * <p>This package sees the JDK, Agrona, the SPI, ring-buffers and codecs only (an ArchUnit test keeps it so).
 */
package io.rdmareactive.internal.protocol;
