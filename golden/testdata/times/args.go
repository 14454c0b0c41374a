package times

import "time"

// Times has time.Time as date-time and as date, plain and pointer.
type Times struct {
	At       time.Time  `json:"at" elicit:""`
	Day      time.Time  `json:"day,omitempty" elicit:"optional,format=date,default=2026-07-28"`
	Maybe    *time.Time `json:"maybe,omitempty" elicit:"optional,default=2026-07-28T09:30:00.5+02:00"`
	Dayptr   *time.Time `json:"dayptr,omitempty" elicit:"optional,format=date"`
	Explicit time.Time  `json:"explicit,omitempty" elicit:"optional,format=date-time,title=Exact moment"`
}
