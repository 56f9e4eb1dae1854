/**
 * The wire protocol of rdma-reactive: what the bytes in a stream ring, an immediate and the rdma_cm private data
 * mean, and the connection that speaks it. Written once against the SPI, so that every provider carries the same
 * frames.
 *
 * <h2>The wire format: one description</h2>
 * The flyweights are the single source of truth for every layout and its validation; the code that speaks the
 * protocol writes and reads through them, and checks what a peer wrote with their {@code check}.
 * <ul>
 *   <li>{@link io.rdmareactive.internal.protocol.FrameHeaderFlyweight}: the 8-byte header of every frame, the frame
 *   types and the DATA flags. DATA frames are the header and the message (or a fragment of it), encoded in place by
 *   a codec.</li>
 *   <li>The bodies: {@link io.rdmareactive.internal.protocol.RequestNFlyweight} (stream, use, n),
 *   {@link io.rdmareactive.internal.protocol.StreamControlFlyweight} (CANCEL, COMPLETE, CLOSE: stream, use),
 *   {@link io.rdmareactive.internal.protocol.ErrorFrameFlyweight} (stream, code, UTF-8 message),
 *   {@link io.rdmareactive.internal.protocol.OpenFrameFlyweight} (stream, kind, initial request n, correlation id) and
 *   {@link io.rdmareactive.internal.protocol.KeepaliveFlyweight}; each draws its layout in its Javadoc.</li>
 *   <li>What they share, declared once: {@link io.rdmareactive.internal.protocol.Flyweight} (the wrapped buffer and
 *   offset, the byte order, the typed field access), {@link io.rdmareactive.internal.protocol.FrameFlyweight} (the
 *   header's reads and write, for every frame), {@link io.rdmareactive.internal.protocol.StreamFrameFlyweight}
 *   (the stream id after the header, and its check) and
 *   {@link io.rdmareactive.internal.protocol.StreamUseFrameFlyweight} (the use after it); each flyweight declares only
 *   its own fields.</li>
 *   <li>{@link io.rdmareactive.internal.protocol.FrameCheck}: the verdicts of the checks, as {@code int} codes.</li>
 *   <li>{@link io.rdmareactive.internal.protocol.ImmediateCodec}: the (stream, advance) pair in the 32-bit immediate
 *   of each RDMA WRITE WITH IMMEDIATE into a peer's ring.</li>
 *   <li>{@link io.rdmareactive.internal.protocol.HandshakeFlyweight}: the private data of a connect request and its
 *   accept, and the layout of the receive region it offers (rings, then credit lines with the credit word and the
 *   receive grant); {@link io.rdmareactive.internal.protocol.RejectFlyweight}: the private data of a reject, a reason
 *   of up to 96 bytes.</li>
 * </ul>
 *
 * <h2>Where frames travel</h2>
 * Each stream slot has a ring each way. Slot 0 is the control stream, written and read by the driver: REQUEST_N
 * (more demand for a data stream) and CANCEL, and KEEPALIVE. The other slots are data streams: DATA, and in-band, in
 * order with it, OPEN (the first frame of each use of a slot), COMPLETE and ERROR. CLOSE is defined but not sent in
 * version 1: a connection ends by disconnecting. Both sides count the uses of each slot by its OPEN frames; an OPEN
 * carries the use it begins as its correlation id, and REQUEST_N, CANCEL and COMPLETE carry the use they belong to,
 * so a late frame of a finished request never touches the next one on the same slot.
 *
 * <h2>The connection</h2>
 * <ul>
 *   <li>{@link io.rdmareactive.internal.protocol.ConnectionEstablishment}: the handshake (the listener takes a
 *   client's stream slots and ring capacity up to its own, both use the smaller maximum message length; a refusal, or
 *   a connection that cannot be allocated, is rejected with a reason both sides read).</li>
 *   <li>{@link io.rdmareactive.internal.protocol.ProtocolConnection}: the connection's parts and the driver's duty
 *   cycle, which calls them in order. Each part has one role:
 *   <ul>
 *     <li>{@code CompletionOrder}: the completions, taken in the order their work was posted;</li>
 *     <li>{@code PublishedPositions}: with direct peer access, the positions the peer published into the rings;</li>
 *     <li>{@code ControlStream}: the control stream, which the driver alone reads and writes;</li>
 *     <li>{@code CorruptionCheck}: the end of a connection whose consumer found a checked frame rewritten;</li>
 *     <li>{@code WatchSet}: the streams the loop looks at in a cycle, from the {@code StreamMarks} of their
 *     producers and consumers;</li>
 *     <li>{@code Posting}: committed frames and credit turned into work requests;</li>
 *     <li>{@code Parking}: the doorbells both ways ({@code PeerDoorbell} rings the peer's), and when the loop may
 *     stop polling the connection;</li>
 *     <li>{@code Liveness}: keepalives, and the peer declared dead when silent;</li>
 *     <li>{@code Goodbye}: what the connection tells its peer as it ends, and what it had not delivered.</li>
 *   </ul></li>
 *   <li>{@link io.rdmareactive.internal.protocol.ProtocolStream}: one stream for its producer (claim, commit, OPEN,
 *   COMPLETE, ERROR) and its consumer (poll, {@code checkFrame}), and its message credit and uses.</li>
 *   <li>{@code StreamSendRing} and {@code StreamReceiveRing}: the two halves of a stream's mirrored ring; frames are
 *   encoded straight into registered memory and copied to the same offsets of the peer's ring.
 *   {@code ConnectionLayout} places the rings and credit lines in the connection's two regions.</li>
 *   <li>{@link io.rdmareactive.internal.protocol.MessageFragmenter} and
 *   {@link io.rdmareactive.internal.protocol.MessageAssembler}: messages larger than a frame, as FIRST / LAST
 *   fragments.</li>
 *   <li>{@link io.rdmareactive.internal.protocol.ProtocolOptions}, {@code ProtocolError},
 *   {@link io.rdmareactive.internal.protocol.ProtocolException},
 *   {@link io.rdmareactive.internal.protocol.StreamActivity} and
 *   {@link io.rdmareactive.internal.protocol.FrameConsumer}.</li>
 * </ul>
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>Little-endian everywhere (what every RDMA host this project targets is), so fields are plain loads.</li>
 *   <li>Frames start at multiples of 8; each ends where its length says, and the next starts at the length rounded
 *   up to 8. A PAD frame fills a ring's tail, so no frame crosses the ring's end; ring positions and immediate
 *   advances are multiples of 8.</li>
 *   <li>Everything a peer writes is untrusted. On arrival the driver checks every frame:
 *   {@link io.rdmareactive.internal.protocol.FrameHeaderFlyweight#check}, then for every frame but DATA and PAD the
 *   body check of its flyweight and where it travels (a COMPLETE, ERROR or OPEN names its own stream; a REQUEST_N or
 *   CANCEL names a data stream). The peer can rewrite its ring at any time, so frames are checked again where they
 *   are read: the header's bounds when a consumer polls, a control frame on a copy the driver then reads, an OPEN,
 *   COMPLETE or ERROR by {@code ProtocolStream.checkFrame} (which also matches its use to the stream's). The checks
 *   read only inside the range they were given, never throw and never allocate; any code but {@code OK} is a
 *   protocol error that closes the connection, with
 *   {@link io.rdmareactive.internal.protocol.FrameCheck#describe(int)} saying why.</li>
 *   <li>Hot path (frames, immediates, credit): no allocation, lock or exception per message; flyweights are wrapped
 *   and reused. Connection setup (handshake, reject) and errors are the cold path and may allocate their
 *   Strings.</li>
 * </ul>
 *
 * <p>This package sees the JDK, Agrona, the SPI, ring-buffers and codecs only (an ArchUnit test keeps it so).
 */
package io.rdmareactive.internal.protocol;
