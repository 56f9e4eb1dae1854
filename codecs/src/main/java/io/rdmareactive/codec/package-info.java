/**
 * Codecs: how application values become bytes in a claimed ring range and back, without a copy where the type
 * allows it.
 *
 * <p>{@link io.rdmareactive.codec.Codec} is the contract the protocol layer relies on: the encoded length is known
 * exactly before anything is claimed (so one {@code tryClaim} suffices and no frame carries slack), a codec writes
 * straight into the claimed {@link org.agrona.MutableDirectBuffer} range and reads from a
 * {@link org.agrona.DirectBuffer} range in place, and it never touches a byte outside the range it was given: a bad
 * range, a value that does not fit or malformed input is reported as a
 * {@link io.rdmareactive.codec.CodecException} naming the codec, the lengths and the range, never as an
 * out-of-bounds access. Received bytes were written by a peer and are untrusted, so every decoder validates
 * what it reads.
 *
 * <p>{@link io.rdmareactive.codec.Codecs} holds the built-in codecs: {@code byte[]}, {@link java.nio.ByteBuffer},
 * zero-copy {@link org.agrona.DirectBuffer} views, UTF-8 {@link java.lang.String}s, boxed primitives and primitive
 * arrays. {@link io.rdmareactive.codec.SbeCodec} adapts the flyweights {@code sbe-tool} generates for a schema (they
 * need only Agrona at run time). {@link io.rdmareactive.codec.CodecRegistry} picks a codec by Java type, so the API
 * can take {@code receive(Order.class)}; a type it cannot serve is reported with
 * {@link io.rdmareactive.codec.NoSuchCodecException}. {@link io.rdmareactive.codec.CodecRanges} holds the range checks
 * every codec makes, for codecs written elsewhere. JSON lives in its own module ({@code rdma-reactive-codecs-json}),
 * so that this one needs nothing but Agrona.
 *
 * <p>This module sees Agrona and the JDK only. Nothing here knows about rings, providers, the protocol or Reactor.
 */
package io.rdmareactive.codec;
