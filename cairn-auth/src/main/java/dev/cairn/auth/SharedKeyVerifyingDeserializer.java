package dev.cairn.auth;

import dev.cairn.events.serde.EventDecodingException;
import java.time.Clock;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Checks a record's {@value RecordSignatures#HEADER} against one key shared by every writer of the topic (the
 * requests key, {@link SigningKey#requestsKey()}), <em>before</em> the value is decoded, then decodes it with
 * {@code inner}: bytes nobody signed are never parsed. A record without a signature fails with
 * {@link EventDecodingException.Problem#UNSIGNED} (unless unsigned records are allowed: then it is decoded as it
 * is), one whose signature does not match (forged, signed with another key, or altered on the way: a bit
 * flipped anywhere in the value) with {@link EventDecodingException.Problem#BAD_SIGNATURE}. A signed record is
 * always checked, also where unsigned ones are allowed. Kafka Streams sends either failure to the dead-letter
 * topic with that reason.
 *
 * <p>During a key rotation the previous shared key is accepted too, until the end of the overlap as {@code clock}
 * tells it, the record's {@value RecordSignatures#KEY_ID_HEADER} naming which key signed it ({@code SignatureCheck}).
 *
 * @param <T> the record type
 */
public final class SharedKeyVerifyingDeserializer<T> implements Deserializer<T> {

    private final Deserializer<T> inner;
    private final RotatingKeys keys;
    private final boolean allowUnsigned;
    private final String remedy;
    private final Clock clock;

    /** Accepts {@code key} only. */
    public SharedKeyVerifyingDeserializer(Deserializer<T> inner, SigningKey key, boolean allowUnsigned,
            String remedy) {
        this(inner, RotatingKeys.of(key), allowUnsigned, remedy, Clock.systemUTC());
    }

    /**
     * @param keys the keys a record may be signed with (the previous one during a rotation)
     * @param allowUnsigned whether a record without signature is decoded as it is (a signed one is still checked)
     * @param remedy what the operator does about an unsigned record, appended to its error message (which key
     *     to sign with, which setting accepts unsigned records)
     * @param clock what tells whether the previous key's overlap has ended
     */
    public SharedKeyVerifyingDeserializer(Deserializer<T> inner, RotatingKeys keys, boolean allowUnsigned,
            String remedy, Clock clock) {
        this.inner = inner;
        this.keys = keys;
        this.allowUnsigned = allowUnsigned;
        this.remedy = remedy;
        this.clock = clock;
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        return deserialize(topic, null, data);
    }

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
        byte[] signature = RecordSignatures.signature(headers);
        if (signature == null && !allowUnsigned) {
            throw new EventDecodingException(EventDecodingException.Problem.UNSIGNED, "the record on topic " + topic
                    + " has no " + RecordSignatures.HEADER + " header; " + remedy, null);
        }
        if (signature != null) {
            SignatureCheck.verify(keys, RecordSignatures.keyId(headers), data, signature, clock,
                    () -> "the record on topic " + topic, "another key");
        }
        return inner.deserialize(topic, headers, data);
    }

    @Override
    public void close() {
        inner.close();
    }
}
