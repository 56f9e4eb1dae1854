/**
 * JSON through Jackson, for services that value convenience over nanoseconds: any type Jackson can bind, with no
 * schema to generate. {@link io.rdmareactive.codec.json.JsonCodec} writes through Jackson's generator into a
 * reusable per-thread buffer (never a per-message {@code byte[]}) and copies that once into the claimed range, since
 * the exact length must be known before the claim; it reads straight from the received range.
 *
 * <p>This package is a module of its own, {@code rdma-reactive-codecs-json}, rather than an optional dependency of
 * the codecs module: the codecs module (and so core) depends on Agrona alone, as its architecture rule says, and a
 * service that wants JSON adds one artifact, which brings a Jackson version known to work, instead of having to know
 * which optional library to declare.
 */
package io.rdmareactive.codec.json;
