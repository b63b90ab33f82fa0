package dev.ourios.store;

/**
 * The store contract, and the local store's tree listing over random trees, through kept listings (the directories
 * these tests change are busy, so this holds the composition of listings; {@link QuietListingsTest} the keeping).
 */
class QuietListingsContractTest extends LocalObjectStoreContractTest {
    @Override
    protected ObjectStore newStore() {
        return QuietListings.over(new LocalObjectStore(dir));
    }
}
