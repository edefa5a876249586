package dev.cairn.events.auth;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serializes with {@code inner}, then signs the value bytes with one job's key into the
 * {@value RecordSignatures#HEADER} header: what a sidecar's producer uses for cairn.acks.
 *
 * @param <T> the record type
 */
public final class SigningSerializer<T> implements Serializer<T> {

    private final Serializer<T> inner;
    private final SigningKey jobKey;

    /** @param jobKey the key of the job whose records this producer sends */
    public SigningSerializer(Serializer<T> inner, SigningKey jobKey) {
        this.inner = inner;
        this.jobKey = jobKey;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        throw new UnsupportedOperationException("a signed record needs headers: Kafka's producer passes them");
    }

    @Override
    public byte[] serialize(String topic, Headers headers, T data) {
        byte[] value = inner.serialize(topic, headers, data);
        if (value != null) {
            RecordSignatures.sign(headers, jobKey, value);
        }
        return value;
    }

    @Override
    public void close() {
        inner.close();
    }
}
