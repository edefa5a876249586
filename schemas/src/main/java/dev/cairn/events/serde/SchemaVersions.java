package dev.cairn.events.serde;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * The frozen versions of each envelope schema, shipped as resources at
 * {@code dev/cairn/events/versions/<EnvelopeName>/v<N>.avsc} (N = 1, 2, ... without gaps).
 * A released version is never edited: new versions are added by {@code FreezeSchemas}.
 */
public final class SchemaVersions {

    /** The resource folder that holds the frozen versions. */
    public static final String ROOT = "dev/cairn/events/versions/";

    private SchemaVersions() {}

    /** Parsed once per JVM: every serde of a type reads the same versions, and parsing them is slow. */
    private static final Map<String, List<Schema>> PARSED = new ConcurrentHashMap<>();

    /** Every frozen version of the named envelope, oldest first; empty when none was frozen. */
    public static List<Schema> frozen(String envelopeName) {
        return PARSED.computeIfAbsent(envelopeName, SchemaVersions::parse);
    }

    private static List<Schema> parse(String envelopeName) {
        List<Schema> versions = new ArrayList<>();
        ClassLoader loader = SchemaVersions.class.getClassLoader();
        for (int version = 1; ; version++) {
            String path = resource(envelopeName, version);
            try (InputStream in = loader.getResourceAsStream(path)) {
                if (in == null) {
                    return List.copyOf(versions);
                }
                versions.add(new Schema.Parser().parse(in));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read frozen schema " + path, e);
            }
        }
    }

    /** The resource path of one frozen version. */
    public static String resource(String envelopeName, int version) {
        return ROOT + envelopeName + "/v" + version + ".avsc";
    }
}
