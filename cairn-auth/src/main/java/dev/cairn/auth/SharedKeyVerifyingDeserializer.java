package dev.cairn.auth;

import dev.cairn.events.serde.EventDecodingException;
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
 * @param <T> the record type
 */
public final class SharedKeyVerifyingDeserializer<T> implements Deserializer<T> {

    private final Deserializer<T> inner;
    private final SigningKey key;
    private final boolean allowUnsigned;
    private final String remedy;

    /**
     * @param key the key every record must be signed with
     * @param allowUnsigned whether a record without signature is decoded as it is (a signed one is still checked)
     * @param remedy what the operator does about an unsigned record, appended to its error message (which key
     *     to sign with, which setting accepts unsigned records)
     */
    public SharedKeyVerifyingDeserializer(Deserializer<T> inner, SigningKey key, boolean allowUnsigned,
            String remedy) {
        this.inner = inner;
        this.key = key;
        this.allowUnsigned = allowUnsigned;
        this.remedy = remedy;
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
        if (signature != null && (data == null || !key.verifies(data, signature))) {
            throw new EventDecodingException(EventDecodingException.Problem.BAD_SIGNATURE, "the signature of the "
                    + "record on topic " + topic + " does not match its value: signed with another key, forged, "
                    + "or altered after signing", null);
        }
        return inner.deserialize(topic, headers, data);
    }

    @Override
    public void close() {
        inner.close();
    }
}
