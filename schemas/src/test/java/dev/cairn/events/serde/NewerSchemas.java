package dev.cairn.events.serde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Schemas of a release after this one, made from this release's by what the schema evolution rules allow (a new
 * field with a default, a new event in an envelope's union), and records written with them in single-object
 * encoding: what a reader of this release meets when the other side of a topic was upgraded first (shared with other
 * modules' tests).
 */
public final class NewerSchemas {

    /** The optional field the newer schemas add to an envelope and to its first event type. */
    public static final String NEW_FIELD = "releaseNote";

    private static final ObjectMapper JSON = new ObjectMapper();

    private NewerSchemas() {
    }

    /**
     * {@code envelope} with an optional string field {@link #NEW_FIELD} (default null) added to the envelope and,
     * when its event union starts with a record, to that event type (e.g. {@code TaskStarted} of
     * {@code AckEnvelope}).
     */
    public static Schema withNewField(Schema envelope) {
        ObjectNode root = tree(envelope);
        addNewField(root);
        ArrayNode union = eventUnion(root);
        if (union != null && union.get(0).isObject()) {
            addNewField((ObjectNode) union.get(0));
        }
        return new Schema.Parser().parse(root.toString());
    }

    /** {@code envelope} with a new event type {@code name} (one string field {@code jobId}) last in its union. */
    public static Schema withNewEvent(Schema envelope, String name) {
        ObjectNode root = tree(envelope);
        ObjectNode event = JSON.createObjectNode().put("type", "record").put("name", name)
                .put("namespace", envelope.getNamespace());
        event.putArray("fields").addObject().put("name", "jobId").put("type", "string");
        ArrayNode union = eventUnion(root);
        if (union == null) {
            throw new IllegalArgumentException("no union in " + envelope.getFullName());
        }
        union.add(event);
        return new Schema.Parser().parse(root.toString());
    }

    /**
     * {@code sample} (a record of this release) as a record of the {@code newer} schema, its new fields at their
     * defaults, then changed by {@code fill}.
     */
    public static GenericRecord asNewer(SpecificRecord sample, Schema newer, Consumer<GenericRecord> fill) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
            new SpecificDatumWriter<SpecificRecord>(sample.getSchema()).write(sample, encoder);
            encoder.flush();
            GenericRecord record = new GenericDatumReader<GenericRecord>(sample.getSchema(), newer, GenericData.get())
                    .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
            fill.accept(record);
            return record;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A record of {@code schema} in single-object encoding. */
    public static byte[] encode(Schema schema, GenericRecord record) {
        try {
            ByteBuffer buffer = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), schema).encode(record);
            byte[] out = new byte[buffer.remaining()];
            buffer.get(out);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The current schema of a generated class. */
    public static Schema current(Class<? extends SpecificRecord> type) {
        return SpecificData.get().getSchema(type);
    }

    private static ObjectNode tree(Schema schema) {
        try {
            return (ObjectNode) JSON.readTree(schema.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void addNewField(ObjectNode record) {
        ObjectNode field = ((ArrayNode) record.get("fields")).addObject().put("name", NEW_FIELD);
        field.putArray("type").add("null").add("string");
        field.putNull("default");
    }

    /** The type of the envelope's first union field; {@code null} when it has none. */
    private static ArrayNode eventUnion(ObjectNode envelope) {
        for (JsonNode field : envelope.get("fields")) {
            if (field.get("type").isArray()) {
                return (ArrayNode) field.get("type");
            }
        }
        return null;
    }
}
