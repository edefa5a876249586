package dev.cairn.events.serde;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Freezes the current schema of every envelope whose newest frozen version differs from it, as the next
 * version under {@code schemas/src/main/resources/dev/cairn/events/versions}. Run it once when a schema
 * change is released:
 * {@code mvn -B -q -pl schemas test-compile exec:java -Dexec.mainClass=dev.cairn.events.serde.FreezeSchemas
 * -Dexec.classpathScope=test}
 */
public final class FreezeSchemas {

    private FreezeSchemas() {}

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : "src/main/resources");
        for (Class<? extends SpecificRecord> type : CairnSerdes.ENVELOPES) {
            Schema current = SpecificData.get().getSchema(type);
            List<Schema> frozen = SchemaVersions.frozen(current.getName());
            if (!frozen.isEmpty() && frozen.get(frozen.size() - 1).equals(current)) {
                System.out.println(current.getName() + ": v" + frozen.size() + " is current");
                continue;
            }
            Path file = root.resolve(SchemaVersions.resource(current.getName(), frozen.size() + 1));
            Files.createDirectories(file.getParent());
            Files.writeString(file, current.toString(true) + System.lineSeparator());
            System.out.println(current.getName() + ": froze " + file);
        }
    }
}
