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
 * zero-copy {@link org.agrona.DirectBuffer} views and UTF-8 {@link java.lang.String}s. Richer codecs (primitives,
 * SBE, JSON) and a registry will live here too.
 *
 * <p>This module sees Agrona and the JDK only. Nothing here knows about rings, providers, the protocol or Reactor.
 */
package io.rdmareactive.codec;
