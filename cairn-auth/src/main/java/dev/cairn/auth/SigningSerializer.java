package dev.cairn.auth;

import java.util.function.Function;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serializes with {@code inner}, then signs the value bytes with the key of the record's job into the
 * {@value RecordSignatures#HEADER} header, the key's id into {@value RecordSignatures#KEY_ID_HEADER}: what a
 * sidecar's producer uses for cairn.acks. The key is asked for per record, so a key that changes (a sidecar that
 * re-read its key file, the REST API at the end of a rotation's overlap) signs the next record.
 *
 * @param <T> the record type
 */
public final class SigningSerializer<T> implements Serializer<T> {

    private final Serializer<T> inner;
    private final Function<T, SigningKey> keyOf;

    /** @param jobKey the key of the one job whose records this producer sends (a sidecar's case) */
    public SigningSerializer(Serializer<T> inner, SigningKey jobKey) {
        this(inner, record -> jobKey);
    }

    /**
     * @param keyOf the key to sign a record with, asked for each record: the key of the job it belongs to (a tool that
     *     sends for several jobs), or the key in force now
     */
    public SigningSerializer(Serializer<T> inner, Function<T, SigningKey> keyOf) {
        this.inner = inner;
        this.keyOf = keyOf;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        throw new UnsupportedOperationException("a signed record needs headers: Kafka's producer passes them");
    }

    @Override
    public byte[] serialize(String topic, Headers headers, T data) {
        byte[] value = inner.serialize(topic, headers, data);
        if (value != null) {
            RecordSignatures.sign(headers, keyOf.apply(data), value);
        }
        return value;
    }

    @Override
    public void close() {
        inner.close();
    }
}
