package dev.cairn.events.serde;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.MissingSchemaException;
import org.apache.avro.message.SchemaStore;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka {@link Serde} for one Avro record type, in Avro's single-object encoding: the bytes
 * {@code C3 01}, the writer schema's 8-byte fingerprint, then the binary body. Reading resolves the
 * fingerprint against every schema version it was given (the frozen versions plus the current one), so
 * data written by any released version stays readable. With a fallback {@link SchemaStore} (a
 * {@link SchemaCatalog} of the schemas topic), a fingerprint none of those versions has is looked up there, so that
 * data written by a newer release is read too, by Avro's schema resolution (fields this release does not know are
 * skipped, fields the writer lacks get their defaults); a schema found there must be a version of this serde's
 * record (same full name), else the record is {@link EventDecodingException.Problem#WRONG_EVENT_TYPE}. Records come
 * out in the current shape ({@link RecordUpcaster}); every failure to read is an {@link EventDecodingException} naming
 * it.
 *
 * @param <T> the generated record type (an envelope or a state record)
 */
public final class AvroEventSerde<T extends SpecificRecord> implements Serde<T>, Serializer<T>, Deserializer<T> {

    private static final AtomicBoolean TRUSTED = new AtomicBoolean();
    private static final Logger LOG = LoggerFactory.getLogger(AvroEventSerde.class);

    static {
        limitAvroAllocations();
    }

    private final String typeName;
    private final String fullName;
    private final SchemaStore fallback;
    private final BinaryMessageEncoder<T> encoder;
    private final BinaryMessageDecoder<T> decoder;
    private final Map<Long, String> otherTypesByFingerprint;

    /**
     * @param type the generated class
     * @param writerVersions earlier versions of the type's schema to accept when reading
     * @param otherTypesByFingerprint fingerprints of other known types, to name them in WRONG_EVENT_TYPE errors
     */
    public AvroEventSerde(Class<T> type, Collection<Schema> writerVersions, Map<Long, String> otherTypesByFingerprint) {
        this(type, writerVersions, otherTypesByFingerprint, null);
    }

    /**
     * @param type the generated class
     * @param writerVersions earlier versions of the type's schema to accept when reading
     * @param otherTypesByFingerprint fingerprints of other known types, to name them in WRONG_EVENT_TYPE errors
     * @param fallback asked for a fingerprint that is none of the versions above ({@link SchemaCatalog});
     *     {@code null}: none
     */
    public AvroEventSerde(Class<T> type, Collection<Schema> writerVersions, Map<Long, String> otherTypesByFingerprint,
            SchemaStore fallback) {
        trustCairnClasses();
        Schema current = SpecificData.get().getSchema(type);
        this.typeName = current.getName();
        this.fullName = current.getFullName();
        this.fallback = fallback;
        SchemaStore.Cache shipped = new SchemaStore.Cache();
        List<Schema> versions = new ArrayList<>(writerVersions);
        versions.add(current);
        versions.forEach(shipped::addSchema);
        this.otherTypesByFingerprint = Map.copyOf(otherTypesByFingerprint);
        SchemaStore store = fallback == null ? shipped : fingerprint -> {
            Schema known = shipped.findByFingerprint(fingerprint);
            if (known != null || this.otherTypesByFingerprint.containsKey(fingerprint)) {
                return known;
            }
            return fromFallback(fingerprint);
        };
        this.encoder = new BinaryMessageEncoder<>(SpecificData.getForClass(type), current);
        this.decoder = new BinaryMessageDecoder<>(SpecificData.getForClass(type), current, store);
    }

    /** A serde that reads only data written with the current schema (for internal state stores). */
    public static <T extends SpecificRecord> AvroEventSerde<T> currentOnly(Class<T> type) {
        return new AvroEventSerde<>(type, List.of(), Map.of());
    }

    /** The 64-bit Rabin fingerprint that single-object encoding writes for a schema. */
    public static long fingerprint(Schema schema) {
        return SchemaNormalization.parsingFingerprint64(schema);
    }

    /**
     * Bounds what Avro allocates for a length read from the bytes (a string, bytes or a collection), so that
     * a corrupt or hostile record claiming a billion items fails to decode instead of exhausting the heap.
     * Kafka records are at most a few MB; these bounds are far above anything Cairn writes. A value already
     * set as a system property is kept (Avro reads them once, when its limits class loads).
     */
    private static void limitAvroAllocations() {
        System.getProperties().putIfAbsent("org.apache.avro.limits.string.maxLength", "16777216");
        System.getProperties().putIfAbsent("org.apache.avro.limits.bytes.maxLength", "16777216");
        System.getProperties().putIfAbsent("org.apache.avro.limits.collectionItems.maxLength", "4194304");
    }

    /**
     * Generated classes live in dev.cairn packages, which Avro 1.12 does not trust by default
     * (it refuses to instantiate them); trust them once, keeping every other rule in place.
     */
    private static void trustCairnClasses() {
        if (TRUSTED.compareAndSet(false, true)) {
            ClassSecurityValidator.ClassSecurityPredicate previous = ClassSecurityValidator.getGlobal();
            ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(
                    previous, type -> type.getName().startsWith("dev.cairn.")));
        }
    }

    /**
     * The fallback's schema of {@code fingerprint}, if it is a version of this serde's record; a schema of another
     * record is refused with {@link ForeignSchema}, and a fallback that fails counts as one that does not know it.
     */
    private Schema fromFallback(long fingerprint) {
        Schema found;
        try {
            found = fallback.findByFingerprint(fingerprint);
        } catch (RuntimeException e) {
            LOG.warn("The schema store {} failed to look up fingerprint {}: {}", fallback,
                    Long.toHexString(fingerprint), e.toString());
            return null;
        }
        if (found == null || fingerprint(found) != fingerprint) {
            return null;
        }
        if (!fullName.equals(found.getFullName())) {
            throw new ForeignSchema(found.getFullName());
        }
        return found;
    }

    /** A schema that the fallback has for a fingerprint, but of another record than this serde reads. */
    private static final class ForeignSchema extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ForeignSchema(String fullName) {
            super(fullName, null, false, false);
        }
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        try {
            ByteBuffer buffer = encoder.encode(data);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException | RuntimeException e) {
            throw new org.apache.kafka.common.errors.SerializationException(
                    "cannot encode " + typeName + " for topic " + topic + ": " + e.getMessage(), e);
        }
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null || data.length == 0) {
            throw new EventDecodingException(EventDecodingException.Problem.EMPTY,
                    "expected a " + typeName + " on topic " + topic + " but the record value is empty", null);
        }
        try {
            ByteArrayInputStream in = new ByteArrayInputStream(data);
            T event = decoder.decode(in);
            if (in.available() > 0) {
                throw new EventDecodingException(EventDecodingException.Problem.TRAILING_BYTES,
                        "the " + typeName + " on topic " + topic + " ends after " + (data.length - in.available())
                                + " of its " + data.length + " bytes; the rest belongs to no event", null);
            }
            return RecordUpcaster.upcast(event);
        } catch (EventDecodingException e) {
            throw e;
        } catch (BadHeaderException e) {
            throw new EventDecodingException(EventDecodingException.Problem.NOT_SINGLE_OBJECT_ENCODED,
                    "expected a " + typeName + " on topic " + topic
                            + " in Avro single-object encoding (starting C3 01), got " + hexPrefix(data), e);
        } catch (MissingSchemaException e) {
            throw unknownFingerprint(topic, data, e);
        } catch (ForeignSchema e) {
            throw new EventDecodingException(EventDecodingException.Problem.WRONG_EVENT_TYPE,
                    "expected a " + typeName + " on topic " + topic + " but schema fingerprint "
                            + Long.toHexString(fingerprintOf(data)) + " is a version of " + e.getMessage()
                            + " (read from the schemas topic)", null);
        } catch (AvroRuntimeException e) {
            if (e.getCause() instanceof EOFException) {
                throw truncated(topic, data, e);
            }
            throw corrupt(topic, data, e);
        } catch (EOFException e) {
            throw truncated(topic, data, e);
        } catch (IOException | RuntimeException e) {
            throw corrupt(topic, data, e);
        }
    }

    private EventDecodingException unknownFingerprint(String topic, byte[] data, Exception cause) {
        long fingerprint = fingerprintOf(data);
        String other = otherTypesByFingerprint.get(fingerprint);
        if (other != null) {
            return new EventDecodingException(EventDecodingException.Problem.WRONG_EVENT_TYPE,
                    "expected a " + typeName + " on topic " + topic + " but the record is a " + other, cause);
        }
        return new EventDecodingException(EventDecodingException.Problem.UNKNOWN_SCHEMA,
                "expected a " + typeName + " on topic " + topic + " but schema fingerprint "
                        + Long.toHexString(fingerprint) + " is no version Cairn knows"
                        + (fallback == null ? "" : ", nor on the schemas topic"), cause);
    }

    private static long fingerprintOf(byte[] data) {
        return data.length >= 10 ? ByteBuffer.wrap(data, 2, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong() : 0L;
    }

    private EventDecodingException truncated(String topic, byte[] data, Exception cause) {
        return new EventDecodingException(EventDecodingException.Problem.TRUNCATED,
                "the " + typeName + " on topic " + topic + " ends early (" + data.length + " bytes)", cause);
    }

    private EventDecodingException corrupt(String topic, byte[] data, Exception cause) {
        return new EventDecodingException(EventDecodingException.Problem.CORRUPT,
                "the " + typeName + " body on topic " + topic + " does not decode (" + data.length + " bytes): "
                        + cause, cause);
    }

    private static String hexPrefix(byte[] data) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(4, data.length); i++) {
            hex.append(String.format("%02X ", data[i]));
        }
        return hex.toString().trim() + (data.length > 4 ? " ..." : "");
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        // nothing to configure: every schema version is shipped with the classes, the fallback given when built
    }

    @Override
    public void close() {
        // holds no resources
    }
}
