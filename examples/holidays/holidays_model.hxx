// The holidays example plugin's one table: a holiday per date.
#pragma once

#include <string>

#pragma db model version(1, 1)

namespace lastro::holidays {

#pragma db object table("holidays_holiday")
struct Holiday {
#pragma db id
    std::string date;  // YYYY-MM-DD
    std::string name;
};

}  // namespace lastro::holidays
