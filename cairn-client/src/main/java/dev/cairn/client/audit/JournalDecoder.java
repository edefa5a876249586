package dev.cairn.client.audit;

import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.RecordUpcaster;
import dev.cairn.events.serde.SchemaVersions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.message.SchemaStore;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;

/**
 * Decodes journal values for a replay, fast: Avro's single-object header (C3 01 and the writer schema's
 * fingerprint) is read from the array, and the body is decoded straight from it with a reused binary decoder and one
 * datum reader per frozen version, where the journal serde reads through an input stream byte by byte, and brought to
 * the current shape as the serde brings it ({@link RecordUpcaster}). Anything
 * this path does not read cleanly (an unknown fingerprint, a short or corrupt body, trailing bytes) goes through
 * the journal serde ({@link CairnSerdes#journal()}), so a record that does not decode fails with the serde's message;
 * given a fallback {@link SchemaStore} (the schemas topic's catalog), that serde resolves a fingerprint of no shipped
 * version there, so that an audit of this release reads a journal written by a coordinator of the next one.
 * Not thread-safe: one per reading thread. The audit and the coordinator's rebuild of its stores read with it.
 */
public final class JournalDecoder {

    private static final int HEADER = 10;

    private final AvroEventSerde<JournalEnvelope> serde;
    private final Map<Long, SpecificDatumReader<JournalEnvelope>> readers = new HashMap<>();
    private BinaryDecoder decoder;

    public JournalDecoder() {
        this(null);
    }

    /** @param fallback where the serde looks up a fingerprint of no shipped version; {@code null}: nowhere */
    public JournalDecoder(SchemaStore fallback) {
        serde = CairnSerdes.forEnvelope(JournalEnvelope.class, fallback);
        Schema current = JournalEnvelope.getClassSchema();
        List<Schema> versions = new ArrayList<>(SchemaVersions.frozen(current.getName()));
        versions.add(current);
        SpecificData data = SpecificData.getForClass(JournalEnvelope.class);
        for (Schema writer : versions) {
            readers.put(AvroEventSerde.fingerprint(writer), new SpecificDatumReader<>(writer, current, data));
        }
    }

    /**
     * The event of one journal value.
     *
     * @throws dev.cairn.events.serde.EventDecodingException when it does not decode, saying why
     */
    public SpecificRecord decode(String topic, byte[] value) {
        SpecificDatumReader<JournalEnvelope> reader = value != null && value.length > HEADER
                && value[0] == (byte) 0xC3 && value[1] == 0x01
                ? readers.get(ByteBuffer.wrap(value, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong()) : null;
        if (reader != null) {
            try {
                decoder = DecoderFactory.get().binaryDecoder(value, HEADER, value.length - HEADER, decoder);
                JournalEnvelope envelope = reader.read(null, decoder);
                if (decoder.isEnd()) {
                    return (SpecificRecord) RecordUpcaster.upcast(envelope).getEvent();
                }
            } catch (IOException | RuntimeException e) {
                decoder = null;
            }
        }
        return (SpecificRecord) serde.deserialize(topic, value).getEvent();
    }
}
