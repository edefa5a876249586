package dev.cairn.core.decide;

import dev.cairn.events.JournalEnvelope;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;

/**
 * Round-trips an event through the binary encoding of a {@link JournalEnvelope}, as the journal
 * topic stores it: proves the event is a branch of the envelope and carries everything replay needs.
 */
final class JournalCodec {

    private JournalCodec() {
    }

    static SpecificRecord roundTrip(SpecificRecord event) {
        ClassSecurityValidator.ClassSecurityPredicate previous = ClassSecurityValidator.getGlobal();
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(previous,
                type -> type.getName().startsWith("dev.cairn.")));
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
            new SpecificDatumWriter<>(JournalEnvelope.class).write(new JournalEnvelope(event), encoder);
            encoder.flush();
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null);
            JournalEnvelope read = new SpecificDatumReader<>(JournalEnvelope.class).read(null, decoder);
            return (SpecificRecord) read.getEvent();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            ClassSecurityValidator.setGlobal(previous);
        }
    }
}
