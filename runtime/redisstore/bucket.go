package redisstore

import (
	"hash/fnv"
	"strconv"
	"sync"
)

// Buckets is how many parts the store's flows are spread over, each with
// its own hash tag and its own epoch key (see the package doc). 256: on a
// Redis Cluster whose masters hold equal contiguous slot ranges (as
// redis-cli --cluster create splits them) each master serves 256/M
// buckets, give or take one (3 masters: 85 or 86; 32 masters: 8 each),
// because each bucket's tag is chosen to fall in its own 64-slot stretch
// of the 16384 slots; and an instance reads each bucket's epoch at most
// once per [Options.EpochCache] (256 reads per 5 s), where one bucket per
// slot would cost 16384. Changing it moves flows to other buckets, whose
// epochs differ: flows in progress are refused ("start the call again"),
// never run twice.
const Buckets = 256

// clusterSlots is the number of hash slots of a Redis Cluster (Redis
// Cluster specification, "Key distribution model").
const clusterSlots = 16384

// bucketTags holds each bucket's hash tag, computed once.
var bucketTags = sync.OnceValue(func() [Buckets]string {
	var tags [Buckets]string
	width := clusterSlots / Buckets
	for b := range tags {
		// The first tag "<b>.<n>" whose slot is in bucket b's stretch:
		// about 256 tries each, a few milliseconds for all.
		for n := 0; ; n++ {
			tag := strconv.Itoa(b) + "." + strconv.Itoa(n)
			if int(keySlot(tag))/width == b {
				tags[b] = tag
				break
			}
		}
	}
	return tags
})

// bucketOf returns flow's bucket: FNV-1a of the flow id, modulo Buckets.
// Flow ids are random ([runtime.FlowID]), so flows spread evenly.
func bucketOf(flow string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(flow))
	return int(h.Sum32() % Buckets)
}

// keySlot is the Redis Cluster hash slot of a key that is its own hash tag:
// CRC16 (XMODEM: polynomial 0x1021, initial value 0) of the key, modulo
// 16384 (Redis Cluster specification, "Key distribution model", whose
// reference implementation this follows bit by bit). TestBucketSlots holds
// it to CLUSTER KEYSLOT of a real server.
func keySlot(key string) uint16 {
	var crc uint16
	for i := 0; i < len(key); i++ {
		crc ^= uint16(key[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc % clusterSlots
}
