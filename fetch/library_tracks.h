// A library image's tracks as flashsim's channel programs see them: fetch implements
// flashsim::ckd::CkdTracks over its LibraryVolume (the layering goes one way: flashsim
// knows tracks and records, not libraries). Read-only; the volume must outlive it.
#pragma once
#include "fetch/library_image.h"
#include "flashsim/ckd.h"

namespace fetch {

class LibraryTracks : public flashsim::ckd::CkdTracks {
 public:
  explicit LibraryTracks(const LibraryVolume& v) : v_(v) {}
  uint32_t extent_first_cylinder() const override { return v_.first_cylinder; }
  uint32_t extent_first_head() const override { return v_.first_head; }
  uint32_t extent_tracks() const override { return v_.tracks_allocated; }
  uint32_t records_on_track(uint32_t t) const override {
    return t < v_.tracks.size() ? uint32_t(v_.tracks[t].records.size()) : 0;
  }
  flashsim::ckd::RecordView record_on_track(uint32_t t, uint32_t i) const override {
    const Record& r = v_.tracks[t].records[i];
    return {r.r, uint32_t(r.key.size()), uint32_t(r.data.size()), r.key.data(), r.data.data()};
  }

 private:
  const LibraryVolume& v_;
};

}  // namespace fetch
