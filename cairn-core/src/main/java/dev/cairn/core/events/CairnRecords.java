package dev.cairn.core.events;

import dev.cairn.events.serde.CairnSerdes;

/**
 * Avro 1.12 refuses to instantiate classes it does not trust, also when a generated builder fills in a default
 * (an enum such as {@code BackupType}, a record, an array of records). Cairn's classes are trusted once a serde
 * is made (see {@code AvroEventSerde}); the REST API's bodies and views build records with such defaults, so
 * they make sure of it first, whatever the process made before.
 */
public final class CairnRecords {

    private static volatile boolean trusted;

    private CairnRecords() {
    }

    /** Trusts Cairn's generated classes (once; making a serde does it). */
    public static void trustGeneratedClasses() {
        if (!trusted) {
            CairnSerdes.requests();
            trusted = true;
        }
    }
}
